print(sorted(range(10**13))[0])
