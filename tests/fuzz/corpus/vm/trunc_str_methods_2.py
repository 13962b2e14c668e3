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
    print('x.py'.removesuffix(