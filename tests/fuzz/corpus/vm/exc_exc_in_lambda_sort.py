print(sorted([1, 2, 3], key=lambda x: 1 / (x - 2)))
