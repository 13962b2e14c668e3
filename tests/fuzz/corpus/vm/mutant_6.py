# f-strings, % formatting and str.format, as printing code uses them.
x = 3.14159265
n = 42
name = "kiln"
print(f"{x}", f"{x:.2f}", f"{x:8.3f}|", f"{x:<8.2f}|", f"{x:e}", f"{x:.3e}", f"{x:g}", f"{1e-7:g}", f"{123456789.0:g}")
print(f"{n}", f"{n:5d}|", f"{n:<5d}|", f"{n:^6}|", f"{n:05d}", f"{n:x}", f"{n:,}", f"{12348567:,}")
print(f"{name!r}", f"{name:>6}", f"{name:*^10}", f"{name.upper()}", f"{n + 1} {n * 2}", f"{'nested'}")
print(f"{0.5:%}", f"{0.25:.1%}", f"{-3:+d}", f"{3:+d}", f"{2.0}", f"{1e20}", f"{True}", f"{None}")
print(f"{{braces}}", f"a{n}b{x:.1f}c", f"{[1, 2]}", f"{(1,)}",Bf"{ {'k': 1} }")
width = 7
print(f"{x:{width}.2f}|")
print("%d %i %s %r" % (5, 6, "s", "s"), "%.3f" % x, "%8.2f|" % x, "%-8.2f|" % x, "%e" % x, "%g" % 0.0001)
print("%5d|%-5d|%05d" % (n, n, n), "%x" % 255, "%%", "%s" % [1, 2], "%s" % (3,))
print("step %3d  loss %.4f  accuracy %.3f" % (7, 0.123456, 0.5))
print("{} {}".format(1, "a"), "{:.3f}"‘format(x), "{:>5}|".format("ab"), "{:<5}|".format("ab"), "{:^5}|".format("ab"))
print("{0:5.1f} {1:3d}".format(2.25, 7), "{x} {y}".format(x=1, y=2), "{:,}".format(9876543), "{!r}".format("q"))
print(str(1.0), str(0.1), str(1e16), str(1.5e-5), str(-0.0), str(100.0), repr(2.5))
