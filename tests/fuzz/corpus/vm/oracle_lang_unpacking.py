# Tuples, unpacking (nested, starred), *args / **kwargs at call sites.
t = (1, 2, 3)
a, b, c = t
print(a, b, c, t[0], t[-1], t[1:], len(t), t + (4,), t * 2, (5,), ())
x, y = 10, 20
x, y = y, x
print(x, y)
first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = "abcd"
print(init, last)
h, *mid, tl = range(6)
print(h, mid, tl)
p, *q = [9]
print(p, q)
(m, n), o = (1, 2), 3
print(m, n, o)
[i, j] = [7, 8]
print(i, j)
for k, (u, v) in enumerate([(1, 2), (3, 4)]):
    print(k, u, v)
pairs = list(zip([1, 2, 3], "abc"))
print(pairs)
nums, letters = zip(*pairs)
print(nums, letters)
def f(a, b, c=0, *args, **kwargs):
    return (a, b, c, args, sorted(kwargs.items()))
print(f(1, 2))
print(f(*[1, 2, 3, 4, 5]))
print(f(1, *(2,), d=4, **{"e": 5}))
print(f(**{"a": 1, "b": 2, "c": 3}))
print(max(*[3, 9, 2]), [*t, *t], {**{"a": 1}, "b": 2})
try:
    a, b = [1, 2, 3]
except ValueError as e:
    print("ValueError:", e)
try:
    a, b, c = [1, 2]
except ValueError as e:
    print("ValueError:", e)
print(t.index(2), t.count(3), 2 in t, tuple([4, 5]), tuple(range(3)))
print((1, 2) < (1, 3), sorted([(2, "b"), (1, "z"), (2, "a")]))
