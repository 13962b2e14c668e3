# Sets: construction, add, membership, set algebra. Printed sorted, because
# CPython orders sets by hash and Kiln by insertion.
s = {3, 1, 2}
s.add(5)
s.add(1)
print(sorted(s), len(s), 1 in s, 4 in s, 4 not in s)
t = set([5, 6, 7, 5])
print(sorted(t), sorted(s | t), sorted(s & t), sorted(s - t))
u = set()
for w in "the cat and the hat and the bat".split():
    u.add(w)
print(sorted(u), len(u))
print(set() == set(), {1, 2} == {2, 1}, {1, 2} == {1, 3})
e = set()
print(len(e), bool(e), bool({0}))
print(sorted({(1, 2), (1, 2), (2, 1)}), sorted({"x", "y"}))
seen = set()
dups = []
for v in [1, 4, 2, 4, 1, 9]:
    if v in seen:
        dups.append(v)
    seen.add(v)
print(dups)
print(sorted(x % 3 for x in {1, 2, 3, 4, 5}))
