# Slicing of lists, tuples and strings, with negative and out-of-range bounds and steps.
L = list(range(10))
T = tuple(L)
S = "abcdefghij"
for sl in [(None, None, None), (2, 5, None), (-3, None, None), (None, -3, None), (None, None, 2), (1, None, 3),
           (None, None, -1), (8, 2, -2), (-1, -5, -1), (5, 100, N