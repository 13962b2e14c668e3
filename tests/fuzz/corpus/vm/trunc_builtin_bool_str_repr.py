try:
    print(bool([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(bool('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str(1.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str(None))
except Exception as e:
    print(type(e).__n