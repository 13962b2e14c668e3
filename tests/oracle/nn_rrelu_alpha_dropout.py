# F.rrelu / nn.RReLU (draw for draw with ATen's CPU kernel), the in-place
# activation variants, alpha and feature-alpha dropout and dropout3d.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(2, 5, requires_grad=True)
y = F.rrelu(x, training=True)
print(r(y), y.grad_fn.name())
y.sum().backward()
print(r(x.grad))
x.grad = None
y = F.rrelu(x)
print(r(y), y.grad_fn.name())
y.backward(torch.arange(10.0).view(2, 5))
print(r(x.grad))
print(r(torch.rand(2)))

# float64: the bounds are not rounded to float; zeros take a random slope too.
torch.manual_seed(1)
d = torch.tensor([-1.0, 0.0, 2.0, -3.0], dtype=torch.float64, requires_grad=True)
y = F.rrelu(d, 0.1, 0.6, True)
print(r(y), y.dtype)
y.sum().backward()
print(r(d.grad))
e = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
y = F.rrelu(e, 0.2, 0.2, training=True)
y.sum().backward()
print(r(y), r(e.grad))

# In place: the same tensor back, RreluWithNoiseBackward1.
torch.manual_seed(2)
z = x.detach().clone().requires_grad_()
w = z * 1
out = F.rrelu_(w, 0.1, 0.3, True)
print(out is w, w.grad_fn.name(), r(w))
w.sum().backward()
print(r(z.grad))
w = z * 1
F.rrelu(w, inplace=True)
print(w.grad_fn.name(), r(w))
print(r(torch.rrelu(torch.tensor([-2.0, 2.0]))))

m = nn.RReLU()
print(m, nn.RReLU(0.1, 0.3, inplace=True))
torch.manual_seed(3)
v = torch.randn(6)
print(r(m(v)))
m.eval()
print(r(m(v)))

for f in [lambda: F.rrelu(torch.randn(3), 0.5, 0.2, True),
          lambda: F.rrelu(torch.arange(3), training=True),
          lambda: F.rrelu(torch.arange(3))]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)

# F.elu_ and friends: the function with inplace=True.
t = torch.tensor([-2.0, -0.5, 0.5, 2.0])
for name, f in [('elu_', lambda a: F.elu_(a, 0.5)), ('celu_', lambda a: F.celu_(a, 2.0)), ('selu_', F.selu_),
                ('leaky_relu_', lambda a: F.leaky_relu_(a, 0.2)), ('hardtanh_', lambda a: F.hardtanh_(a, -1.0, 0.75)),
                ('threshold_', lambda a: F.threshold_(a, 0.6, -9.0))]:
    a = t.clone()
    b = f(a)
    print(name, b is a, r(a))

# Alpha dropout keeps SELU's statistics: dropped elements take -alpha * a + b.
torch.manual_seed(4)
x = torch.randn(2, 3, 2, requires_grad=True)
y = F.alpha_dropout(x, 0.3, True)
print(r(y), y.grad_fn.name())
y.sum().backward()
print(r(x.grad))
y = F.feature_alpha_dropout(x, 0.4, True)
print(r(y), y.grad_fn.name())
print(F.alpha_dropout(x, 0.3) is x, F.feature_alpha_dropout(x, 0.0, True) is x)
print(r(F.alpha_dropout(x, 1.0, True)))
h = x.detach().clone()
print(F.alpha_dropout(h, 0.5, True, True) is h, r(h))
h = torch.randn(1, 2, 3, 1, 1)
print(r(F.dropout3d(h, 0.5)), r(F.dropout3d(h[0], 0.5)))
print(r(F.dropout3d(h, 0.5, False)))

print(nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(), nn.Dropout3d(0.1, True))
m = nn.AlphaDropout(0.25)
print(r(m(torch.ones(8))))
m.eval()
print(r(m(torch.ones(3))))
m = nn.FeatureAlphaDropout(0.5)
print(r(m(torch.ones(2, 4, 2))))
m = nn.Dropout3d()
print(r(m(torch.ones(1, 4, 1, 1, 2))))
for f in [lambda: F.alpha_dropout(torch.randn(3), 1.5), lambda: F.feature_alpha_dropout(torch.randn(3), 0.5, True),
          lambda: nn.AlphaDropout(-0.1), lambda: F.dropout3d(torch.randn(3), 2.0)]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)
