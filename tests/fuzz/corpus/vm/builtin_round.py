try:
    print(round(2.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(3.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(-0.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(1.2345, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(1234, -2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(float('inf')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(1e300, -400))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(5, 10**18))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round('x'))
except Exception as e:
    print(type(e).__name__, e)
