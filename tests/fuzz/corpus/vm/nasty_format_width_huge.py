print(format(1, '10000000000'))
