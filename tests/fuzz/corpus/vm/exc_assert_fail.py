x = 1
assert x == 2, f'x is {x}'
