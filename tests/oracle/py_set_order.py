# Sets iterate in CPython's hash-table order, not insertion order: small ints
# come out ascending, larger ones by their slots. Literals of constants,
# set(), adds, comprehensions, the operators and their in-place forms, copies,
# pop, and hash() of ints, floats and tuples. Kiln replays a set's insertions
# into a model of CPython's table (core/lang/set_order.h); an add after a
# removal is placed as if the removed item had never been there.
import random

print({3, 1, 2}, {100, 5, 37, 8, 16}, {-1, -2, 3}, {9, 1, 17, 33}, {40, 3, 22, 7, 19, 100, 64, 1})
print(set([9, 1, 17, 33]), set(range(10, 0, -1)), set(range(40, 0, -3)), frozenset([3, 1, 2]))
print({(1, 2), (0, 1), (2, 3)}, {1.5, 0.5, 2.0}, {True, 0, 5}, {x % 7 for x in range(20, 40)})
print(list(set([1000, 10, 100, 1])), tuple({2 ** 40, 7, -5}), sorted({5, 3}), [x * 2 for x in {8, 4, 2}])
s = set()
for v in [40, 3, 22, 7, 19, 100, 64, 1, 33, 65, 97, 129]:
    s.add(v)
print(s, len(s), 33 in s)
a, b = {3, 1, 2, 9, 12, 40}, {12, 9, 1, 77, 200}
print(a | b, a & b, a - b, b - a, a ^ b, b ^ a)
print(a.union(b, [5, 300]), a.intersection(b), a.difference([1, 2]), a.symmetric_difference(b))
c = set(a)
c |= {500, 33}
print(c, set(c), c.copy(), frozenset(c))
c -= {3, 500}
print(c)
c = set(c)  # (adds after removals can land on the removed items' slots: not modelled)
c ^= {1, 2, 1000}
print(c)
c &= {9, 12, 1000, 33, 44}
print(c)
d = set({7: "a", 70: "b", 700: "c", 7000: "d"})
d.update({1, 71}, [2, 72])
print(d)
p = {90, 18, 27, 4}
print([p.pop() for _ in range(len(p))])
random.seed(5)
nums = [random.randint(0, 200) for _ in range(60)]
print(set(nums))
print(set(x * 3 for x in nums[:20]))
print(hash(5), hash(-1), hash(1.5), hash(-0.5), hash(2.0), hash((1, 2)), hash(()), hash((1, (2, 3))), hash(10 ** 18))
print(hash(float("inf")), hash(True), hash((1.5, -2)), hash(0.1))
