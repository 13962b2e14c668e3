try:
    print(isinstance(1, int))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(isinstance(True, int))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(isinstance(1, (str, float)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(isinstance(1, 5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(issubclass(bool, int))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(issubclass(1, int))
except Exception as e:
    print(type(e).__name__, e)
try:
    p