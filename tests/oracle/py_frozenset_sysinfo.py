# frozenset and sys.float_info / sys.int_info.
import sys
fi = sys.float_info
print(fi.max, fi.min, fi.epsilon, fi.dig, fi.mant_dig)
print(fi.max_exp, fi.min_exp, fi.max_10_exp, fi.min_10_exp, fi.radix, fi.rounds)
print(fi)
print(fi[0] == fi.max, len(fi), type(fi).__name__)
print(sys.int_info.bits_per_digit, sys.int_info.sizeof_digit)
print(1.0 + fi.epsilon > 1.0, 1.0 + fi.epsilon / 2 == 1.0)
e = frozenset()
print(e, len(e), repr(frozenset([3])), type(e).__name__)
a = frozenset([1, 2, 3])
b = frozenset({2, 3, 4})
s = {3, 4, 5}
print(a, sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b))
print(type(a | s).__name__, type(s | a).__name__, type(a & s).__name__, type(s - a).__name__)
print(2 in a, 9 in a, a == frozenset([3, 2, 1]), a == {1, 2, 3}, {1, 2, 3} == a)
print(a <= frozenset([1, 2, 3, 4]), a < a, a.issubset([1, 2, 3]), a.isdisjoint(s))
print(hash(a) == hash(frozenset([3, 1, 2])), hash(frozenset()) == hash(frozenset([])))
d = {a: "A", frozenset(): "empty"}
print(d[frozenset([1, 2, 3])], d[frozenset()])
ss = {frozenset([1]), frozenset([1]), frozenset([2])}
print(len(ss), frozenset([1]) in ss)
print(sorted(a.union([9])), type(a.union([9])).__name__, sorted(a.intersection(s)), sorted(a.difference(s)))
print(type(a.copy()).__name__, a.copy() == a, sorted(a.symmetric_difference(s)))
print(isinstance(a, frozenset), isinstance(a, set), isinstance(s, frozenset))
print(frozenset("aab") == frozenset("ab"), sorted(frozenset(range(4))), frozenset(a) == a)
print(set(a) == a, type(set(a)).__name__)
x = a
x |= {7}
print(sorted(x), sorted(a), x is a)
for bad in [lambda: a.add(1), lambda: hash({1}), lambda: {{1}: 2}, lambda: frozenset(1),
            lambda: a.remove(1), lambda: fi.foo]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
