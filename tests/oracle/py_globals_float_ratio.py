# globals() (a snapshot dict of the module's names) and float.as_integer_ratio().
x_global = 5
def f():
    return globals()["x_global"], "f" in globals(), sorted(k for k in globals() if not k.startswith("__"))[:3]
print(f(), globals()["x_global"])
print((0.5).as_integer_ratio(), (-2.75).as_integer_ratio(), (3.0).as_integer_ratio(), (0.1).as_integer_ratio(), (0.0).as_integer_ratio(), (1e18).as_integer_ratio())
for v in (float("nan"), float("inf")):
    try:
        v.as_integer_ratio()
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
