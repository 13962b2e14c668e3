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
    print(type(e).__name__, e)
try:
    print(repr('a\'b"c'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(repr([1, 'x']))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str(b=1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(repr(1e-7))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str(2**63 - 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(repr({1: {2: [3]}}))
except Exception as e:
    print(type(e).__name__, e)
