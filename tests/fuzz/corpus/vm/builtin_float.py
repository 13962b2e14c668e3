try:
    print(float('1.5'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float(' nan '))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('-inf'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('1e999'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('abc'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('infinity'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float(2**63 - 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('1_0.5'))
except Exception as e:
    print(type(e).__name__, e)
