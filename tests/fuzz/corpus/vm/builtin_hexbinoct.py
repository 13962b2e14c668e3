try:
    print(hex(255))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(bin(-5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(oct(8))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hex(-9223372036854775807 - 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hex(1.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(bin(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(255, 'x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(255, '#010b'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(3.14159, '.2f'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format('s', '>5'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(1, 'q'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(1.5, 'd'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(12345678, ','))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(1e300, 'f'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(1.5, '.999f'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(2, '99999999999'))
except Exception as e:
    print(type(e).__name__, e)
