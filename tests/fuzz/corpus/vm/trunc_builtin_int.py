try:
    print(int('42'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(' -7 '))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('0x1f'