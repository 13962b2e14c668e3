# Basic values: ints, floats, bools, None and how they print.
a = 7
b = -3
c = 2.5
print(a, b, c, True, False, None)
print(type(a).__name__, type(c).__name__, type(True).__name__, type(None).__name__, type("s").__name__)
print(a + b, a - b, a * b, a / b, a // b, a % b, a ** 2, 2 ** -1)
print(a + c, a * c, c * 2, c / 0.5, c ** 2, 10 / 4, 10 / 5)
print(True + True, True * 3, False - 1, 1 == 1.0, True == 1)
print(9223372036854775807, -9223372036854775807 - 1)
print(1_000_000, 0x1F, 0o17, 0b101, 1e3, 1.5e-3, .5, 5.)
print(int(3.9), int(-3.9), int("42"), int(" -7 "), int(True), float(3),