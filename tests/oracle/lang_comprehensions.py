# List/dict/set comprehensions and generator expressions.
print([x * 2 for x in range(5)])
print([x for x in range(20) if x % 3 == 0 if x % 2 == 0])
print([(x, y) for x in range(3) for y in range(x)])
print([[r * 3 + c for c in range(3)] for r in range(2)])
print({w: len(w) for w in ["a", "bb", "ccc"]})
print({k: v for k, v in zip("abc", range(3)) if v != 1})
print(sorted({x % 4 for x in range(10)}))
print(sum(x * x for x in range(10)), max(len(w) for w in ["ab", "abcd"]), any(x > 8 for x in range(10)))
print(list(x + 1 for x in [1, 2]), tuple(c.upper() for c in "ab"), ",".join(str(i) for i in range(3)))
matrix = [[1, 2, 3], [4, 5, 6]]
print([[row[i] for row in matrix] for i in range(3)])
print([v for row in matrix for v in row])
x = "outer"
print([x for x in "ab"], x)
print(["even" if i % 2 == 0 else "odd" for i in range(4)])
print([f(3) for f in [lambda v: v + 1, lambda v: v * 10]])
print(dict((str(i), i) for i in range(3)))
def scale(k):
    return [k * v for v in range(3)]
print(scale(5))
print(len([0 for _ in range(1000)]), [i for i in []])
