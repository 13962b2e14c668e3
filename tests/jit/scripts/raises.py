print("before")


def outer():
    return 1 // 0
outer()
