try:
    print(min(3, 1, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max([4, 9, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(min([], default=7))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(min('bca'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max([1, 'a']))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(min([3, -4], key=abs))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max(key=len))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max(1, 2, key=None))
except Exception as e:
    print(type(e).__name__, e)
