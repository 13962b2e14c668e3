print(list(map(lambda x: x.nope, [1])))
