# torch.autograd.forward_ad as the Forward-mode AD tutorial uses it: dual tensors through
# plain tensor code and nn modules (attributes swapped for duals, functional_call), the
# namedtuple unpack_dual returns, tangent identity, levels, and the errors for misuse.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call

torch.manual_seed(0)


def r(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()]


def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, str(e))


primal = torch.randn(4, 4)
tangent = torch.randn(4, 4)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level() as level:
    print(level)
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print(fwAD.unpack_dual(dual_input_alt).tangent is not tangent, r(fwAD.unpack_dual(dual_input_alt).tangent[0]))
    plain_tensor = torch.randn(4, 4)
    dual_output = fn(dual_input, plain_tensor)
    unpacked = fwAD.unpack_dual(dual_output)
    print(type(unpacked).__name__, unpacked._fields, len(unpacked))
    print(r(unpacked.tangent[:2]), torch.allclose(unpacked.tangent, 2 * primal * tangent))
    p, t = unpacked
    print(r(p[0]), t is unpacked.tangent)
    print(fwAD.unpack_dual(plain_tensor).tangent is None, fwAD.unpack_dual(plain_tensor).primal is plain_tensor)
    # a longer chain of ops, with broadcasting, reductions and matmul
    x = torch.randn(3, 5)
    v = torch.randn(3, 5)
    w = torch.randn(5, 2)
    dx = fwAD.make_dual(x, v)
    out = (torch.tanh(dx @ w).exp() * dx.sum(dim=1, keepdim=True)).softmax(dim=0).log() + F.gelu(dx)[:, :2]
    print(r(fwAD.unpack_dual(out).tangent))
    print(r(fwAD.unpack_dual(dx.mean()).tangent), r(fwAD.unpack_dual(dx.sum(dim=0) * 0).tangent))
    # the unpacked primal has no tangent
    print(fwAD.unpack_dual(fwAD.unpack_dual(out).primal).tangent is None)
print(fwAD.unpack_dual(dual_output).tangent is None)

# same numbers as torch.func.jvp
def g(a):
    return torch.sin(a) * a.cumsum(0) / (1 + a * a)


a = torch.randn(6)
va = torch.randn(6)
with fwAD.dual_level():
    tan = fwAD.unpack_dual(g(fwAD.make_dual(a, va))).tangent
print(r(tan), torch.allclose(tan, torch.func.jvp(g, (a,), (va,))[1]))

# modules: parameters replaced by duals
model = nn.Linear(5, 5)
inp = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(inp)
    jvp = fwAD.unpack_dual(out).tangent
print(r(jvp[:2]), torch.allclose(jvp, inp @ tangents['weight'].T + tangents['bias']))

model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
inp = torch.randn(5, 4)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, inp)
    jvp = fwAD.unpack_dual(out).tangent
print(r(jvp))
print(sorted(n for n, _ in model.named_parameters()))

# a primal with history of its own: backward still reaches it
w = torch.randn(3, requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(w, torch.ones(3))
    o = (d * d).sum()
    print(round(fwAD.unpack_dual(o).tangent.item(), 4), round((2 * w).sum().item(), 4))
    o.backward()
print(r(w.grad), r(2 * w.detach()))

# a custom Function with a jvp (and no backward)
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


prim = torch.randn(4, dtype=torch.double, requires_grad=True)
tang = torch.randn(4, dtype=torch.double)
with fwAD.dual_level():
    out = Exp.apply(fwAD.make_dual(prim, tang)) * 2
    print(r(fwAD.unpack_dual(out).tangent), r(2 * tang * prim.detach().exp()))

# levels and misuse
x = torch.randn(3)
err(lambda: fwAD.make_dual(x, torch.ones(3)))
print(fwAD.unpack_dual(x).tangent)
with fwAD.dual_level():
    err(lambda: fwAD.make_dual(x, torch.ones(4)))
    err(lambda: fwAD.make_dual(x, torch.ones(2, 3)))
    err(lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.int64)))
    err(lambda: fwAD.make_dual(torch.arange(3), torch.ones(3)))
    err(lambda: fwAD.enter_dual_level())
    err(lambda: fwAD.exit_dual_level(level=2))
    d = fwAD.make_dual(x, torch.ones(3))
    err(lambda: fwAD.make_dual(d, torch.ones(3)))
    err(lambda: fwAD.unpack_dual(3))
err(lambda: fwAD.exit_dual_level())
print(fwAD.enter_dual_level())
fwAD.exit_dual_level(level=0)
print(fwAD.enter_dual_level())
fwAD.exit_dual_level()
print(sorted(fwAD.__all__))
