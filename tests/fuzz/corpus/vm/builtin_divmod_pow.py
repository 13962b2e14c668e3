try:
    print(divmod(7, -2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(divmod(-7.5, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(divmod(1, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(divmod(1.0, 0.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(2, 10))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(2, -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(2, 10, 1000))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(3, -1, 7))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(2, 3, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(0, -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(-8, 1/3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(2, 64))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(10, 18, 2**62))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(pow(2.0, 10000))
except Exception as e:
    print(type(e).__name__, e)
