for i, (a, b) in enumerate(zip(range(10**12), range(10**12))):
    pass
