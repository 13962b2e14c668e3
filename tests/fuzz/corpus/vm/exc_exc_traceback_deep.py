def r(n):
    if n == 0:
        raise KeyError('bottom')
    return r(n - 1)
r(150)
