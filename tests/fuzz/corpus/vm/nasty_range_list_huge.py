print(len(list(range(10**12))))
