try:
    print(1, 2, sep='-', end='!\n')
except Exception as e:
    print(type(e).__name__, e)
tr