try:
    print(hasattr([], 'append'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(getattr(1, 'real', 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(getattr(1, 'nope'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(getattr(1, 'nope', 'dflt'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(setattr(1, 'x', 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(delattr(1, 'x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(getattr(1, 5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(1).__name__)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(type))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(1, 2))
except Exception as e:
    print(type(e).__name__, e)
