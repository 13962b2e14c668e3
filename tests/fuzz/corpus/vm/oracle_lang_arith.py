# Python arithmetic semantics: floor division and modulo signs, int/float promotion, powers.
pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (0, 5), (1, -1)]
for a, b in pairs:
    print(a, b, a // b, a % b, a / b)
fpairs = [(7.5, 2), (-7.5, 2), (7.5, -2.0), (-0.5, 1.0), (5.0, 0.3)]
for a, b in fpairs:
    print(a, b, a // b, round(a % b, 12))
print(2 ** 10, 2 ** 0, (-2) ** 3, 2 ** 0.5, 4 ** 0.5, 2.0 ** 3, (-8) ** 2, 10 ** -2)
print(3 * 1.0, 3 + 0.0, type(3 * 1.0).__name__, type(6 // 2).__name__, type(6 / 2).__name__)
print(round(2.5), round(3.5), round(-2.5), round(0.125, 2), round(2.675, 2), round(7), round(1234.5678, -2))
print(round(1.23456789, 4), round(-0.5), round(1.5), type(round(2.3)).__name__)
print(max(3, 7, 5), min(3, 7, 5), max(2.5, 2), min(-1, -1.5))
print(10 - 3 * 2 ** 2 + 1, (10 - 3) * 2, -2 ** 2, (-2) ** 2)
for op in ["div", "floordiv", "mod"]:
    try:
        if op == "div":
            print(1 / 0)
        elif op == "floordiv":
            print(1 // 0)
        else:
            print(1 % 0)
    except ZeroDivisionError as e:
        print(op, type(e).__name__, str(e))
try:
    print(1.0 / 0)
except ZeroDivisionError as e:
    print("float", str(e))
print(0.1 + 0.2, 1 - 0.9, 3 * 0.1, 1 / 3, 2 / 3, 100 * 1.1)
