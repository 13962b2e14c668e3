print(max(range(10**14)), min(range(-10**14, 0)))
