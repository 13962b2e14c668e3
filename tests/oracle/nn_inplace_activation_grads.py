# F's activations with inplace=True on a tensor autograd records: the result is
# written into the input, and backward through it gives the out-of-place
# gradient (ours are compositions; they must not read the overwritten input).
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(2, 5, requires_grad=True)
acts = [("elu", {}), ("selu", {}), ("celu", {"alpha": 0.5}), ("leaky_relu", {"negative_slope": 0.2}),
        ("hardtanh", {}), ("relu6", {}), ("hardsigmoid", {}), ("hardswish", {}), ("mish", {}), ("silu", {}),
        ("relu", {}), ("threshold", {"threshold": 0.1, "value": -1.0})]
for name, kw in acts:
    w = x * 2
    out = getattr(F, name)(w, inplace=True, **kw)
    (w * torch.arange(10.0).view(2, 5)).sum().backward()
    print(name, out is w, type(w.grad_fn).__name__, r(w), r(x.grad))
    x.grad = None

# The modules' inplace flag goes the same way.
for m in [nn.ReLU(inplace=True), nn.ELU(inplace=True), nn.SELU(True), nn.LeakyReLU(0.1, True), nn.Hardswish(True), nn.SiLU(True),
          nn.Mish(True), nn.ReLU6(True)]:
    w = x - 0.5
    y = m(w)
    y.sum().backward()
    print(type(m).__name__, y is w, r(x.grad))
    x.grad = None

# Dropout in place: the same mask scales the gradient.
torch.manual_seed(5)
w = x * 1
y = nn.Dropout(0.4, inplace=True)(w)
y.sum().backward()
print(y is w, r(w), r(x.grad))
x.grad = None
w = x.view(1, 2, 5, 1) * 1
F.dropout2d(w, 0.5, True, True).sum().backward()
print(r(w), r(x.grad))
x.grad = None
w = x.view(2, 5, 1) * 1
F.dropout1d(w, 0.5, True, True).sum().backward()
print(r(w), r(x.grad))
x.grad = None

# Without autograd the input is written directly.
with torch.no_grad():
    w = x.clone()
    F.elu_(w)
    print(r(w))

# Augmented assignment runs the in-place op (pow_ is pow_.Scalar / pow_.Tensor in the table).
for e in [2, 0.5, torch.tensor([1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0])]:
    w = x.detach().flatten().abs() * 1
    w.requires_grad_()
    v = w * 1
    v **= e
    v.sum().backward()
    print(type(v.grad_fn).__name__, r(v), r(w.grad))
n = torch.tensor([5, -7, 9])
n **= 2
n //= 4
n %= 7
print(n.tolist(), n.dtype)
