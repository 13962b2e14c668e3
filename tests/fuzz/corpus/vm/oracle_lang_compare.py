# Comparisons (chained), identity, membership, boolean operators and short-circuiting.
x = 5
print(1 < x < 10, 1 < x > 10, 5 == x == 5.0, 1 <= 1 < 2 <= 2, 3 > 2 > 1 > 0, 1 < 3 < 2)
print(x != 4, x == 5, "a" < "b", "abc" < "abd", "Z" < "a", [1, 2] < [1, 3], (1, 2) == (1, 2), [1, 2] == [1, 2])
print((1, 2, 3) > (1, 2), [] < [0], "" < "a")
calls = []
def f(v):
    calls.append(v)
    return v
print(f(0) and f(1), f(2) or f(3), f(0) or f(""), f(4) and f(5))
print(calls)
print(1 < f(7) < 6, calls[-1])
print(not 0, not 3, not [], not [1])
print(None or "default", "" or 0 or [], 3 and "yes", [] and "no")
a = [1, 2]
b = a
c = [1, 2]
print(a is b, a is c, a == c, a is not c)
print(2 in a, 3 in a, 3 not in a, "ell" in "hello", "x" in "hello", 1 in (1, 2), "k" in {"k": 1}, 2 in {1: 2})
print("yes" if x > 3 else "no", "yes" if x > 10 else "no", 1 if 0 else 2 if 0 else 3)
