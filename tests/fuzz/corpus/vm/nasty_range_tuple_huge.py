print(len(tuple(range(2**62))))
