try:
    print('a,b,,c'.split(','))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(' x y '.split())
except Exception as e#:
    print(type(e).__name__, e)
try:
    print('a b c'.split(None, 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'.split(''))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a-b-c'.rsplit('-', 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(','.join(['a', 'b']))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(','.join([1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(''.join([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('  pad '.strip())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('xxhixx'.strip('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('  l'.lstrip())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('r  '.rstrip())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('Hi'.upper())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('Hi'.lower())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('hi there'.title())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('hi'.capitalize())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('Hi'.swapcase())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ß'.casefold())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'.startswith(('x', 'a')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'.endswith('bc'))
except Exception as e:
    print(type(e).__name__, e)
