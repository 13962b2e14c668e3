try:
    print('%' % ())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%(a)s' % {'a': 1})
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%c' % 65)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%*d' % (5, 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(f'{1+1:03d}|{"s"!r}|{3.5:.1%}|{1000000:,}|{255:#x}|{-1:+}|{"c":^5}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'[::-1])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'[5])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'[1:100])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a' in 'abc')
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1 in 'abc')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ab' * 3)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ab' * -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a' < 'b')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a' + 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('é'.upper())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('x'.encode())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str.lower('ABC'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'.split(',', -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('x'.join('abc'))
except Exception as e:
    print(type(e).__name__, e)
