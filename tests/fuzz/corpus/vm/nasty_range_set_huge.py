print(len(set(range(10**13))))
