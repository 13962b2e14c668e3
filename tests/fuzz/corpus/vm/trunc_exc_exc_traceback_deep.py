def r(n):
    if n == 0:
        raise KeyError('bo