def a():
    try:
        return 1
    finally:
        return 2
def b():
    for i