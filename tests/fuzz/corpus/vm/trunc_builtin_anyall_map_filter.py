try:
    print(any([0, '', 3]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(all([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(all([1, 0]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(map(str, [1, 2])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(map(lambda a, b: a + b, [1, 2], [3])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(filter(None, [0, 1, '', 