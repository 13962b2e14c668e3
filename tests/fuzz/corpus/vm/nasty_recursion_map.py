def f(x):
    return list(map(f, [x]))
f(1)
