d = dict.fromkeys(range(10**12))
