# Python arithmetic semantics: floor division and modulo signs, int/float promotion, powers.
pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (0, 5), (1, -1)]
for a, b in pairs:
    print(a, b, a // b, a % b, a / b)
fpairs = [(7.5, 2), (-7.5, 2), (7.5, -2.0), (-0.5, 1.0), (5.0, 0.3)]
for a, b in fpairs:
    print(a, b, a // b, round(a % b, 12))
print(2 ** 10, 2 ** 0, (-2) ** 3, 2 ** 0.5, 4 ** 0.5, 2.0 ** 3, (-8) ** 