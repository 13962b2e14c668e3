try:
    print(list('abc'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(tuple([1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict(a=1, b=2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict([(1, 2), (3, 4)]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(set([1, 1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict([(1, 2, 3)]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(set([[1]]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict({1: 2}, x=3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(tuple(range(3)))
except Exception as e:
    print(type(e).__name__, e)
