print(len([x for x in range(10**12)]))
