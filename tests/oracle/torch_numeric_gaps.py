# Numeric corners matched bit for bit (or to the printed rounding) against PyTorch's CPU kernels:
# F.interpolate on uint8 images (aten's int16 fixed-point bilinear/bicubic passes), the second
# derivatives of elu/selu/celu at and near 0, softmax/log_softmax in half and bfloat16, the
# linalg *_ex functions with their info, and float remainder/fmod (signed zeros, inf, nan).
import math
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def isum(t, scale=0):
    # An order-independent exact checksum: integers weighted by position.
    v = t.double()
    if scale:
        v = (v * 2.0 ** scale).round()
    v = v.long().flatten()
    return (v * (torch.arange(v.numel()) % 97 + 1)).sum().item()


def fsum(t):
    # Exact checksum of float values through frexp: mantissa bits and exponents.
    m, e = torch.frexp(t.double())
    w = torch.arange(t.numel()) % 89 + 1
    return (m.flatten() * 2.0 ** 53).long().mul(w).sum().item() % 1000000007, (e.flatten().long() * w).sum().item()


# ---- 1. uint8 interpolate ----------------------------------------------------------------------
print("interpolate uint8")
img = torch.randint(0, 256, (2, 3, 7, 9), dtype=torch.uint8)
mask = torch.randint(0, 256, (1, 6, 5, 8), dtype=torch.uint8)  # more than 4 channels: aten's generic path
# (an output 1 pixel wide is left out: aten's uint8 kernels mishandle it)
for x in (img, mask):
    for kw in (dict(size=(13, 17)), dict(size=(4, 5)), dict(size=(x.shape[2], 20)), dict(scale_factor=0.45),
               dict(scale_factor=(1.7, 0.6))):
        row = []
        for mode, ac in (("nearest", None), ("nearest-exact", None), ("bilinear", False), ("bilinear", True),
                         ("bicubic", False), ("bicubic", True)):
            for aa in (False, True):
                if aa and mode.startswith("nearest"):
                    continue
                extra = {} if ac is None else {"align_corners": ac}
                y = F.interpolate(x, mode=mode, antialias=aa, **extra, **kw)
                row.append(isum(y))
        print(x.shape[1], sorted(kw.items())[0][0], tuple(y.shape[2:]), row)

# ---- 2. elu family second derivatives ---------------------------------------------------------
print("elu double backward")
pts = [0.0, -0.0, 1e-8, -1e-8, -0.5, 0.5, -3.0]
for name, f in (("elu", lambda t: F.elu(t)), ("elu2", lambda t: F.elu(t, alpha=2.0)), ("selu", F.selu),
                ("celu.3", lambda t: F.celu(t, alpha=0.3))):
    x = torch.tensor(pts, dtype=torch.float64, requires_grad=True)
    y = f(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), x)
    print(name, [math.copysign(1.0, v) for v in y.tolist()[:2]], [round(v, 6) for v in g.tolist()])
    print("  ", [round(v, 6) for v in g2.tolist()])
xf = torch.tensor([-1e-5, -0.3, -2.5, -0.0, 1.5] * 4)
print("elu f32", isum(F.elu(xf, 1.3), 40), isum(F.selu(xf), 40), isum(F.celu(xf, 0.7), 40))

# ---- 3. softmax in half and bfloat16 ------------------------------------------------------------
print("softmax reduced")
# Non-last dims keep fewer than 32 columns: PyTorch's kernel divides blocks of 32 columns in float
# but rounds each exp first on the rest, which a thread count or vector width could move.
cases = ((torch.randn(8, 33) * 4, (1,)), (torch.randn(33, 8) * 4, (0, 1)), (torch.randn(3, 5, 7) * 3, (1, 2)),
         (torch.randn(6, 4, 5) * 3, (0, 1)))
for dt in (torch.float16, torch.bfloat16):
    out = []
    for t, dims in cases:
        for dim in dims:
            out.append(isum(torch.softmax(t.to(dt), dim), 24))
            out.append(isum(torch.log_softmax(t.to(dt), dim), 16))
    print(dt, out[:6])
    print("  ", out[6:])

# ---- 4. linalg *_ex -------------------------------------------------------------------------------
print("linalg ex")
A = torch.randn(2, 3, 3, dtype=torch.float64) + 3 * torch.eye(3, dtype=torch.float64)
sing = torch.tensor([[1., 2.], [2., 4.]])
inv, info = torch.linalg.inv_ex(A)
print([round(v, 6) for v in inv.flatten().tolist()[:6]], info.tolist(), info.dtype)
print(torch.linalg.inv_ex(sing).info.item(), torch.linalg.inv_ex(torch.zeros(2, 2, 2)).info.tolist())
S = A @ A.mT
for upper in (False, True):
    L, info = torch.linalg.cholesky_ex(S, upper=upper)
    print(upper, [round(v, 6) for v in L.flatten().tolist()[:6]], info.tolist())
print(torch.linalg.cholesky_ex(torch.tensor([[4., 2.], [2., -3.]])).info.item(),
      torch.linalg.cholesky_ex(-torch.eye(3).expand(2, 3, 3)).info.tolist())
B = torch.randn(2, 3, 2, dtype=torch.float64)
for args, kw in (((A, B), {}), ((A, B[:, :, 0]), {}), ((A[0], B[0, :, 0]), {}), ((A, B.mT), {"left": False})):
    r, info = torch.linalg.solve_ex(*args, **kw)
    print(tuple(r.shape), [round(v, 6) for v in r.flatten().tolist()[:4]], info.tolist())
print(torch.linalg.solve_ex(sing, torch.ones(2)).info.item())
for f, args in ((torch.linalg.inv_ex, (sing,)), (torch.linalg.inv_ex, (torch.zeros(3, 2, 2),)),
                (torch.linalg.cholesky_ex, (sing,)), (torch.linalg.solve_ex, (sing, torch.ones(2, 1)))):
    try:
        f(*args, check_errors=True)
    except RuntimeError as e:
        print("RuntimeError", e)
Ag = A.clone().requires_grad_(True)
w = torch.arange(18.0, dtype=torch.float64).reshape(2, 3, 3)
inv = torch.linalg.inv_ex(Ag).inverse
print(inv.grad_fn.name(), [round(v, 6) for v in torch.autograd.grad((inv * w).sum(), Ag)[0].flatten().tolist()[:4]])
Sg = S.clone().requires_grad_(True)
L = torch.linalg.cholesky_ex(Sg).L
print(L.grad_fn.name(), [round(v, 6) for v in torch.autograd.grad((L * w).sum(), Sg)[0].flatten().tolist()[:4]])
r = torch.linalg.solve_ex(Ag, B).result
print(r.grad_fn.name(), [round(v, 6) for v in torch.autograd.grad(r.sum(), Ag)[0].flatten().tolist()[:4]])

# ---- 5. remainder / fmod on floats ---------------------------------------------------------------
print("remainder fmod")


def exact(n, lo, hi, dt):
    # integer mantissas times powers of two: the same values in both runtimes
    m = torch.randint(-(1 << 11), 1 << 11, (n,)).double()
    e = torch.tensor([2.0 ** k for k in range(lo, hi)], dtype=torch.float64)[torch.randint(0, hi - lo, (n,))]
    return (m * e).to(dt)


# Divisors stay normal and quotients below 2^150: PyTorch's vectorised fmod answers nan past those
# (its scalar tail does not), so only the range where both agree is checked.
edge = [0.0, -0.0, 1.0, -1.0, 1.5, -1.5, 3.0, -3.0, 1e30, -1e30, 7.0, -7.0, 2.5e-7, math.inf, -math.inf,
        math.nan, 16777216.0, 0.1, -0.3, 1e-3]
E = torch.tensor(edge, dtype=torch.float64)
X, Y = E.repeat_interleave(len(edge)), E.repeat(len(edge))
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    x, y = X.to(dt), Y.to(dt)
    for name, f in (("rem", torch.remainder), ("fmod", torch.fmod), ("%", lambda a, b: a % b)):
        r = f(x, y)
        print(dt, name, r.isnan().sum().item(), fsum(torch.nan_to_num(r, 0.5, 1e300, -1e300)),
              sum(math.copysign(1.0, v) < 0 for v in r.tolist() if v == v))  # a nan's sign is unspecified
    xr, yr = exact(1500, -12, 12, dt), exact(1500, -12, 12, dt)
    yr = torch.where(yr == 0, torch.ones_like(yr), yr)
    for name, f in (("rem", torch.remainder), ("fmod", torch.fmod)):
        wide = xr * 2.0 ** (8 if dt == torch.float16 else 40)  # large quotients
        print(dt, name, fsum(f(xr, yr)), fsum(f(xr, 1.5)), fsum(f(xr, -0.375)), fsum(f(wide, yr)))
    z = xr.clone()
    z %= 2.5
    z2 = xr.clone()[::2]
    z2.fmod_(yr[::2])
    print(dt, "in place", fsum(z), fsum(z2))
print(torch.remainder(torch.tensor([5, -5, 7]), torch.tensor([3, 3, -2])).tolist(),
      torch.fmod(torch.tensor([5, -5, 7]), 3).tolist(), torch.remainder(torch.tensor([5, -5]), 2.5).tolist())
