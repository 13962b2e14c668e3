try:
    print('x'.center(5, '*'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('x'.ljust(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('x'.rjust(3, 'ab'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a=b=c'.partition('='))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a=b=c'.rpartition('='))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a\nb\r\nc'.splitlines())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('prefix_x'.removeprefix('prefix_'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('x.py'.removesuffix('.py'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{} {}'.format(1, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{0}{0}'.format('a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{a}'.format(a=5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:>{w}}'.format('x', w=4))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{}'.format())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{0'.format(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{x}'.format())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:q}'.format(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d %s %r' % (1, 'a', 'b'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%5.2f|%-4d|%x|%e|%g|%%' % (3.14159, 7, 255, 12345.678, 0.0001))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d' % 'x')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%s %s' % (1,))
except Exception as e:
    print(type(e).__name__, e)
