def k(x):
    return sorted([x], key=k)
sorted([1], key=k)
