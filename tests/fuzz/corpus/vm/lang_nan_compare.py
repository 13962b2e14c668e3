try:
    print(float('nan') == float('nan'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('nan') < 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('nan') != float('nan'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max(float('nan'), 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(max(1, float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(min([float('nan'), 0, 1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([3, float('nan'), 1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([float('nan')] == [float('nan')])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('nan') in [float('nan')])
except Exception as e:
    print(type(e).__name__, e)
try:
    print({float('nan'): 1})
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len({float('nan'), float('nan')}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(float('nan'), 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('nan') // 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('inf') % 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(divmod(float('inf'), 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('inf') - float('inf'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('inf') * 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(abs(float('-nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash(float('nan')) == 0 or True)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d' % float('inf'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(f'{float("nan"):.2f}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('nan') ** 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1 ** float('nan'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str(-0.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-0.0 == 0.0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1e16 + 1 == 1e16)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(0.1 + 0.2)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(repr(1/3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(5e-324 / 2)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float('1e-400'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(1e308))
except Exception as e:
    print(type(e).__name__, e)
