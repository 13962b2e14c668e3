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
    print(type(e).__name__, e)
try:
    print('{:.3s}'.format('abcdef'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{!x}'.format(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{0[1]}'.format([5, 6]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{0.real}'.format(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:.{}f}'.format(1.5, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{}' .format(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(f'{float("inf"):f}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%.0f %.1f' % (0.5, 0.25))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%5s|%-5s|%05d|%+d|% d' % ('a', 'b', 42, 3, 4))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%.3e|%G|%o|%X|%i' % (1234.5, 1e-10, 8, 255, 3.7))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%s' % [1, 2])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%s %s' % [1, 2])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d' % 1e20)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d' % float('nan'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%.500f' % 1.0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%999999999d' % 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:999999999}'.format(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(f'{1:{""}}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(1e-320, '.3g'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(-1e308 * 10, ''))
except Exception as e:
    print(type(e).__name__, e)
