# Slicing of lists, tuples and strings, with negative and out-of-range bounds and steps.
L = list(range(10))
T = tuple(L)
S = "abcdefghij"
for sl in [(None, None, None), (2, 5, None), (-3, None, None), (None, -3, None), (None, None, 2), (1, None, 3),
           (None, None, -1), (8, 2, -2), (-1, -5, -1), (5, 100, None), (-100, 3, None), (3, 3, None), (7, 2, None),
           (None, None, -3), (100, None, -1)]:
    s = slice(*sl)
    print(sl, L[s], T[s], S[s])
print(L[2:8:2], S[::-2], T[-2:], L[-1], S[-3], T[0])
sub = L[3:6]
sub[0] = 99
print(L[3], sub)
L[2:4] = ["a", "b", "c"]
print(L)
L[::3] = [0, 0, 0, 0]
print(L)
L[1:1] = [7]
print(L)
try:
    L[::2] = [1]
except ValueError as e:
    print("ValueError:", e)
try:
    print(S[20])
except IndexError as e:
    print("IndexError:", e)
try:
    print(T[10])
except IndexError as e:
    print("IndexError:", e)
try:
    L[0:1:0]
except ValueError as e:
    print("ValueError:", e)
