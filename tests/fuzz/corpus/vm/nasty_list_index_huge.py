print(list(range(10**7)).index(-1))
