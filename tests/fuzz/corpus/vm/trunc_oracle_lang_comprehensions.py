# List/dict/set comprehensions and generator expressions (materialized by Kiln).
print([x * 2 for x in range(5)])
print([x for x in range(20) if x % 3 == 0 if x % 2 == 0])
print([(x, y) for x in range(3) for y in r