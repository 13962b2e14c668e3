# Floats print as Python prints them: the shortest repr that round-trips.
vals = [0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 1.0, -1.0, 0.0, -0.0, 100.0, 1e15, 1e16, 1.5e16, 1e-4, 1e-5,
        0.00012345, 123456789.123, 2.5e-300, 1.7976931348623157e308, 5e-324, 3.141592653589793, 1e22, 1e21,
        12345678901234567.0, 0.5, 1.25, 9.999999999999999e-05, 4.35, 2 ** 0.5, 10 / 3, 1e100]
for v in vals:
    print(v, repr(v), str(v))
print([0.1, 1e-7, 2.0], (1.5, -0.25), {"f": 0.3})
inf = float("inf")
nan = float("nan")
print(inf, -inf, nan, inf > 1e308, nan == nan, nan != nan, inf - inf != inf - inf, -inf < 0)
print(float("1e500"), float("-0.0"), 1e308 * 10, -1e308 * 10)
print(int(1e15), int(-2.5e3), float(2 ** 53), float(2 ** 53 + 1), 2 ** 53 + 1)
print(0.1 * 3 == 0.3, abs(0.1 * 3 - 0.3) < 1e-12, round(0.1 * 3, 10) == 0.3)
print(7.0 // 2, 7.0 % 2, -7.0 // 2, -7.0 % 2, 7 // 2.5, 2.5 * 4, 1e300 * 1e10)
print(f"{0.1:.20f}", "%.17g" % 0.1, "%r" % 0.1)
