try:
    print(abs(-3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(abs(-2.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(abs('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(abs(-9223372036854775807 - 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sum([1, 2.5]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sum([[1], [2]], []))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sum(['a'], ''))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sum(