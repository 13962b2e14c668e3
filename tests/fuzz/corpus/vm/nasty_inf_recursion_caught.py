def f(n):
    try:
        return f(n + 1)
    except RecursionError:
        return f(n + 1)
f(0)
