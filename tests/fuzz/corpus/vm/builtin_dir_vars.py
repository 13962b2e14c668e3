try:
    print(len(dir()) > 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('append' in dir([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(vars())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(vars(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dir(1, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(object()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(object() == object())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(object(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(slice(1, 2, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(slice(None))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2, 3][slice(0, 2)])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(slice())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(slice(1, 2, 3, 4))
except Exception as e:
    print(type(e).__name__, e)
