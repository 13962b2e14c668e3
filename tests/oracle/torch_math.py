# Pointwise math beyond arithmetic: rounding, one-sided clamps, float classification,
# logical and bitwise ops (and & | ^ ~), the libm functions, aliases, in-place forms,
# and a backward through several of them. Float and int inputs.
import torch

x = torch.tensor([-2.5, -1.5, -0.7, 0.5, 1.5, 2.5, 3.25])
y = torch.tensor([1.5, -2.0, 4.0, 0.5, -1.0, 3.0, 0.25])
u = torch.tensor([-0.9, -0.5, 0.0, 0.3, 0.75])
p = torch.tensor([0.5, 1.0, 2.0, 8.0, 100.0])
i = torch.tensor([12, -7, 5, 0, -1])
j = torch.tensor([10, 3, -8, 6, 7])
b = torch.tensor([True, False, True, False])
c = torch.tensor([True, True, False, False])
special = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -0.0, 0.0])


def show(name, t):
    print(name, t.dtype, t.tolist())


def rounding(x):
    return torch.floor(x), torch.ceil(x), torch.trunc(x), torch.round(x), x.fix(), x.frac()


for name, t in zip(["floor", "ceil", "trunc", "round", "fix", "frac"], rounding(x)):
    show(name, t)
show("round_dec", torch.round(x * 1.2345, decimals=2))
show("round_neg_dec", torch.round(x * 123.0, decimals=-1))
show("reciprocal", torch.reciprocal(y))
show("reciprocal_int", j.reciprocal())
show("square", torch.square(x))
show("square_int", j.square())

# One-sided clamps, Python numbers and tensors as bounds.
show("clamp_min", torch.clamp_min(x, 0.0))
show("clamp_max", x.clamp_max(1.0))
show("clamp_min_t", torch.clamp_min(x, y))
show("clamp_max_t", torch.clamp_max(x, y))
show("clamp_min_int", i.clamp_min(0))
show("clip", torch.clip(x, -1, 1))
show("clip_t", x.clip(min=y))

# Classification.
for name in ["isnan", "isinf", "isposinf", "isneginf", "isfinite", "signbit"]:
    show(name, getattr(torch, name)(special))
show("isnan_int", torch.isnan(i))
show("isfinite_int", torch.isfinite(i))
show("signbit_int", torch.signbit(i))
show("nan_to_num", torch.nan_to_num(special, nan=0.5, posinf=9.0, neginf=-9.0))
show("nan_to_num_default", torch.nan_to_num(special).isfinite())
show("nan_to_num_int", torch.nan_to_num(i))

# Logical and bitwise ops, and their operators.
show("logical_and", torch.logical_and(x > 0, y > 0))
show("logical_or", torch.logical_or(x, y > 0))
show("logical_xor", x.logical_xor(y))
show("logical_int", torch.logical_and(i, j))
show("bitwise_and", torch.bitwise_and(i, j))
show("bitwise_or", i.bitwise_or(j))
show("bitwise_xor", torch.bitwise_xor(i, 6))
show("bitwise_not", torch.bitwise_not(i))
show("bitwise_bool", torch.bitwise_and(b, c))
show("op_and", i & j)
show("op_or", i | 3)
show("op_xor", b ^ c)
show("op_invert", ~i)
show("op_invert_bool", ~b)
show("op_mask", (x > 0) & (y < 2) | (x < -2))
w = i.clone()
w &= j
w |= 1
w ^= 2
show("op_inplace", w)

# Float functions of one input (ints promote to float32).
for name in ["expm1", "exp2", "tan", "atan", "sinh", "cosh", "asinh", "erfc"]:
    show(name, getattr(torch, name)(x * 0.5))
for name in ["asin", "acos", "atanh", "erfinv", "arcsin", "arccos", "arctanh"]:
    show(name, getattr(torch, name)(u))
for name in ["log2", "log10", "acosh", "arccosh"]:
    show(name, getattr(torch, name)(p + 1.0))
show("exp2_int", torch.exp2(j))
show("log2_int", torch.log2(torch.tensor([1, 2, 1024])))
show("deg2rad", torch.deg2rad(torch.tensor([180, -90, 45])))
show("rad2deg", torch.rad2deg(u))

# Float functions of two inputs.
show("atan2", torch.atan2(x, y))
show("arctan2", torch.arctan2(i, j))
show("hypot", torch.hypot(x, y))
show("logaddexp", torch.logaddexp(x, y))
show("logaddexp2", torch.logaddexp2(x, y))
show("xlogy", torch.xlogy(torch.tensor([0.0, 2.0, 3.0, 0.0]), torch.tensor([0.0, 0.5, 2.0, 5.0])))
show("copysign", torch.copysign(x, y))
show("copysign_int", torch.copysign(i, -1))
show("fmod", torch.fmod(x, y))
show("fmod_int", torch.fmod(i, j))
show("remainder_vs_fmod", torch.remainder(i, j))
show("heaviside", torch.heaviside(x.round(), torch.tensor([0.5])))
show("float_power", torch.float_power(p, 2))
show("lerp", torch.lerp(x, y, 0.25))
show("lerp_far", torch.lerp(x, y, 0.75))
show("lerp_t", torch.lerp(x, y, torch.sigmoid(y)))
show("addcmul", torch.addcmul(x, y, y, value=0.5))
show("addcdiv", x.addcdiv(y, p.mean() + y.abs(), value=2))
show("addcmul_int", torch.addcmul(i, j, j, value=2))

# Aliases.
show("absolute", torch.absolute(x))
show("negative", x.negative())
show("sgn", torch.sgn(x))
show("multiply", torch.multiply(x, y))
show("divide", torch.divide(x, y, rounding_mode="floor"))
show("subtract", x.subtract(y, alpha=2))
show("true_divide", torch.true_divide(i, 4))
show("greater", torch.greater(x, y))
show("less_equal", x.less_equal(y))

# In place.
z = x.clone()
z.mul_(1.3).floor_()
show("floor_", z)
z = x.clone()
z.round_(decimals=1)
show("round_", z)
z = y.clone()
z.clamp_min_(0.0).sqrt_().exp2_()
show("chain_", z)
z = x.clone()
z.copysign_(y).abs_().log10_()
show("chain2_", z)
z = x.clone()
z.lerp_(y, 0.5)
z.addcmul_(y, x, value=-1)
show("lerp_addcmul_", z)
z = i.clone()
z.bitwise_not_()
show("bitwise_not_", z)
z = y.clone()
z.square_()
z.nan_to_num_()
z.clip_(0, 5)
show("square_clip_", z)

# A fused graph of several ops, and a backward through them.
def f(a, b):
    return torch.logaddexp(a, b) + torch.frac(a) * torch.clamp_min(b, 0.0) - torch.reciprocal(b.abs() + 1)


show("fused", f(x, y))
a = x.clone().requires_grad_(True)
bb = y.clone().requires_grad_(True)
out = f(a, bb) + torch.atan2(a, bb) + torch.hypot(a, bb) + torch.lerp(a, bb, 0.3) + torch.sinh(a * 0.5)
out = out + torch.addcdiv(a, bb, bb.abs() + 1) + torch.xlogy(bb.abs() + 0.5, a.abs() + 0.5) + torch.expm1(a * 0.1)
out.sum().backward()
show("grad_a", a.grad)
show("grad_b", bb.grad)
