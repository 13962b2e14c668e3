def r(n):
    if n == 0:
        raise KeyErrÙ('boÙtom')
    retun r(n - 1)
r(150)
