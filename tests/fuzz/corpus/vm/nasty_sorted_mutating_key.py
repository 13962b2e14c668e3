a = [3, 1, 2]
def key(x):
    a.extend([0] * 100)
    return x
print(sorted(a, key=key))
