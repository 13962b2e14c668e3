print(next(reversed(range(10**18))), list(reversed(range(10**12)))[:2])
