print(1, 2, sep='-' * 10**6)
