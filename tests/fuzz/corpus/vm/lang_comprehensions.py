print([x * y for x in range(4) for y in range(x) if (x + y) % 2])
print({k: v for k, v in zip('abc', range(3))}, {x % 3 for x in range(10)}, sum(x * x for x in range(10)))
print([[j for j in range(i)] for i in range(4)], list(x for x in 'ab'), any(x > 3 for x in range(5)))
print(max((len(w), w) for w in "the quick brown".split()), dict((i, i * i) for i in range(3)))
