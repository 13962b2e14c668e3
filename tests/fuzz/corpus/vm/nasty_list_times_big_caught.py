try:
    x = [None] * 10**15
except MemoryError:
    print('MemoryError')
