try:
    print(f'{3.14159:10.3f}|{42:<6}|{42:^6}|{42:>+6}|{-0.0}|{1e21}|{1/3}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print(f'{"x"!s:>{3}}{[1, 2]!r}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:,.2f}'.format(1234567.891))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:e}'.format(0.000123))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:g}'.format(1e-20))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:%}'.format(0.25))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:08.3f}'.format(-3.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:_}'.format(10**9))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:c}'.format(65))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:b}'.format(-5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:o}'.format(8))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:X}'.format(255))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:n}'.format(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:=+8}'.format(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:s}'.format(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:d}'.format('a'))
except Exception as e: