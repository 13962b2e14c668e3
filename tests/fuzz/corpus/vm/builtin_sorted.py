try:
    print(sorted([3, 1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted('bca', reverse=True))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([(1, 'b'), (1, 'a')]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([1, 'a']))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([3, 1], key=lambda x: -x))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([1.5, float('nan'), 0.5]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted({3: 1, 1: 2}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([1], key=5))
except Exception as e:
    print(type(e).__name__, e)
