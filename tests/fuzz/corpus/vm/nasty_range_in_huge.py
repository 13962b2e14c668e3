print(10**18 - 1 in range(10**18), 'x' in range(10**12))
