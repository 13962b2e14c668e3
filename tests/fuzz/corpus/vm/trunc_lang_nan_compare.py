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
except 