try:
    print(next(iter([1])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(next(iter([])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(next(iter([]), 'end'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(iter(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(next(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(next(iter(range(3))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(iter([1, 2])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(next(iter({1: 2})))
except Exception as e:
    print(type(e).__name__, e)
