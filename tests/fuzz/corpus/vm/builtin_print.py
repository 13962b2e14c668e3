try:
    print(1, 2, sep='-', end='!\n')
except Exception as e:
    print(type(e).__name__, e)
try:
    print(*[1, 2, 3])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a', None, 1.5, [1], {'k': (1,)})
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sep=1)
except Exception as e:
    print(type(e).__name__, e)
