try:
    print(int('42'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(' -7 '))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('0x1f', 16))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('z', 36))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('1_000'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(3.9))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(-3.9))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(float('inf')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('99999999999999999999'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(''))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('12', 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('12', 37))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(True))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(1e19))
except Exception as e:
    print(type(e).__name__, e)
