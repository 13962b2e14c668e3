try:
    print((1)())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('s'())
except Exception as e:
    print(type(e).__name__, e)
try:
    print([]())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(None())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(print.__call__(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len(*[[1]], **{}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print((lambda: 1)(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print((lambda *, a: a)(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print((lambda **k: k)(**{'a': 1}, b=2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print((lambda a: a)(a=1, **{'a': 2}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict(**{1: 2}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([], **{'key': len, 'reverse': 1}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(x='1'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max(*[], default=0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(5)(3.7))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type('s')(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type([])('ab'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(None)())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(len)(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(type(lambda: 0)())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(*[1, 10, 3]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(isinstance(1, *[int]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str(1, 2, 3))
except Exception as e:
    print(type(e).__name__, e)
