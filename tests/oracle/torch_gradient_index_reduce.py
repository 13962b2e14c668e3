# torch.gradient (uniform and coordinate spacing, edge orders 1 and 2, dims,
# integer input, autograd, PyTorch's errors) and index_reduce / index_reduce_
# (prod, mean, amax, amin, include_self, integer mean, autograd, errors).
import warnings

import torch

warnings.filterwarnings("ignore")
torch.manual_seed(0)


def r(ts):
    return [[round(v, 4) for v in t.reshape(-1).tolist()] for t in ts]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


a = torch.randn(3, 5)
print(r(torch.gradient(a)))
print(r(torch.gradient(a, spacing=2.0, dim=1)))
print(r(torch.gradient(a, spacing=[0.5, 3], edge_order=2)))
print(r(torch.gradient(a, dim=-1, edge_order=2)))
print(r(torch.gradient(torch.tensor([1, 2, 4, 8]))), torch.gradient(torch.tensor([1, 2, 4, 8]))[0].dtype)
print(r(torch.gradient(torch.tensor([1, 2, 4, 8]), spacing=2)))
x = torch.tensor([1., 2, 4, 8, 9])
print(r(torch.gradient(x, spacing=(torch.tensor([0, 1, 3, 4, 7]),), edge_order=2)))
print(r(torch.gradient(x, spacing=[torch.tensor([0., 1, 3, 4, 7.5])])))
print(r(torch.gradient(a, spacing=[torch.arange(3.) ** 2, torch.linspace(0, 1, 5)], dim=(0, 1), edge_order=2)))
print(r(torch.gradient(torch.arange(6.).view(2, 3) ** 2, dim=1)))
print(r(torch.gradient(torch.randn(2, 3, 4, dtype=torch.float64), spacing=torch.tensor(0.5), dim=[2, 0])))
w = torch.tensor([1., 2, 4, 8], requires_grad=True)
g = torch.gradient(w, edge_order=2)[0]
g.sum().backward()
print(r([g]), g.grad_fn.name(), w.grad.tolist())
err(lambda: torch.gradient(torch.tensor([1., 2.]), edge_order=2))
err(lambda: torch.gradient(torch.ones(3, 4), spacing=[1., 2., 3.]))
err(lambda: torch.gradient(torch.ones(3, 4), spacing=[1., 2.], dim=1))
err(lambda: torch.gradient(torch.ones(3, 4), edge_order=3))

base = torch.arange(6.).view(3, 2)
src = torch.randn(3, 2)
idx = torch.tensor([0, 0, 2])
for reduce in ("prod", "mean", "amax", "amin"):
    for include_self in (True, False):
        out = base.index_reduce(0, idx, src, reduce, include_self=include_self)
        print(reduce, include_self, r([out]))
print(r([torch.index_reduce(torch.arange(6.).view(3, 2), 1, torch.tensor([1, 1, 0]), torch.arange(9.).view(3, 3), "mean")]))
print(torch.index_reduce(torch.arange(6).view(3, 2), 1, torch.tensor([1, 1, 0]), torch.arange(9).view(3, 3), "mean").tolist())
print(torch.index_reduce(torch.arange(6).view(3, 2), 1, torch.tensor([1, 1, 0]), torch.arange(9).view(3, 3), "mean",
                         include_self=False).tolist())
t = torch.zeros(3, 2)
t.index_reduce_(0, torch.tensor([2, 1, 2], dtype=torch.int32), src, "amax", include_self=False)
print(r([t]))
s = torch.randn(3, 2, requires_grad=True)
b = torch.randn(3, 2, requires_grad=True)
out = b.index_reduce(0, idx, s, "prod")
out.sum().backward()
print(out.grad_fn.name(), r([s.grad, b.grad]))
err(lambda: base.index_reduce(0, idx, src, "sum"))
err(lambda: base.index_reduce(0, torch.tensor([0, 5, 2]), src, "amax"))
err(lambda: base.index_reduce(0, torch.tensor([0, 1]), src, "amax"))
err(lambda: base.index_reduce(0, torch.tensor([0., 1, 1]), src, "amax"))
