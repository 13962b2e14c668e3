a = [1, 2, 3]
def k(x):
    a.clear()
    return x
print(max(a, key=k), min(a, key=k) if a else None)
