print(any(x < 0 for x in range(10**12)), all(range(1, 10**12)))
