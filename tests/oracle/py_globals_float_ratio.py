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
# Tensor dunders called directly, and torch.tensor of a range.
import torch
t = torch.zeros(2, 3)
t.__setitem__((0, 1), 5.0)
print(t.__getitem__(0).tolist(), torch.tensor(range(5)).tolist(), torch.tensor(range(10, 0, -3), dtype=torch.float64).tolist())
