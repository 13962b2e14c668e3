try:
    print(True / False)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True // False)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True % False)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True ** -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(~True)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-True)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True & 3)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True | False)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True ^ True)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True << 3)
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2][True])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ab' * True)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True + 1.5)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(divmod(True, True))
except Exception as e:
    print(type(e).__name__, e)
