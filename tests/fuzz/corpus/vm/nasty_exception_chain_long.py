def f(n):
    try:
        raise ValueError(n)
    except ValueError:
        if n < 150:
            f(n + 1)
        raise
f(0)
