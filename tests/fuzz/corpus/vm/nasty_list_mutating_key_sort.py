a = [3, 1, 2]
def key(x):
    a.clear()
    return x
a.sort(key=key)
print(a)
