print('a' * 10**15)
