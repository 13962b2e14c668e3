try:
    print(open('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(input())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(eval('1'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(exec('1'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(__import__('os'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(compile('1', 'f', 'eval'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(globals())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(locals())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(breakpoint())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(memoryview(b''))
except Exception as e:
    print(type(e).__name__, e)
