print(sum(map(abs, range(10**12))))
