# nn.LazyLinear (in_features from the first input, PyTorch's draws then) and
# the 3-d and circular padding modules.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
m = nn.LazyLinear(3)
print(m)
print(m.weight, m.bias, len(list(m.parameters())), m.in_features, m.has_uninitialized_params())
print(m.state_dict())
try:
    print(m.weight.shape)
except Exception as ex:
    print(type(ex).__name__, ex)
s = nn.Sequential(nn.LazyLinear(4, bias=False), nn.ReLU(), nn.LazyLinear(2))
print(s)
x = torch.randn(5, 6)
y = m(x)
print(m, tuple(m.weight.shape), tuple(m.bias.shape), m.in_features)
print(type(m).__name__, type(s[0]).__name__, hasattr(m, 'has_uninitialized_params'))
print(r(y), y.grad_fn.name())
y.sum().backward()
print(r(m.weight.grad))
print(r(s(x)), s[0].bias)
print(s)
print([tuple(p.shape) for p in s.parameters()], list(s.state_dict().keys()))
print(isinstance(m, nn.Linear), isinstance(nn.LazyLinear(3), nn.Linear))
ref = nn.Linear(6, 3)
torch.manual_seed(1)
ref.reset_parameters()
torch.manual_seed(1)
lz = nn.LazyLinear(3)
lz(torch.zeros(2, 6))
print(torch.equal(ref.weight, lz.weight), torch.equal(ref.bias, lz.bias))
opt = torch.optim.SGD(lz.parameters(), lr=0.1)
lz(torch.ones(1, 6)).sum().backward()
opt.step()
print(r(lz.weight - ref.weight))
try:
    nn.LazyLinear(2)(torch.tensor(1.0))
except Exception as ex:
    print(type(ex).__name__, ex)
for m in [nn.ZeroPad3d(1), nn.ZeroPad3d((1, 0, 2, 1, 0, 1)), nn.ConstantPad3d(1, 2.5), nn.ReflectionPad3d(1), nn.ReplicationPad3d((1, 0, 2, 1, 0, 1)),
          nn.CircularPad1d(2), nn.CircularPad2d((1, 0, 2, 1)), nn.CircularPad3d(1)]:
    print(m)
x = torch.arange(24.0).view(1, 2, 3, 4).requires_grad_()
y = nn.CircularPad2d((1, 0, 2, 1))(x)
print(y.shape, y[0, 0].tolist())
y.sum().backward(); print(x.grad.tolist())
print(nn.CircularPad1d((2, 1))(torch.arange(6.0).view(2, 3)).tolist())
x5 = torch.arange(24.0).view(1, 1, 2, 3, 4)
for m in [nn.ZeroPad3d((1, 0, 2, 1, 0, 1)), nn.ConstantPad3d(1, 2.5), nn.ReflectionPad3d(1), nn.ReplicationPad3d((1, 0, 2, 1, 0, 1)), nn.CircularPad3d(1)]:
    y = m(x5)
    print(type(m).__name__, tuple(y.shape), y.sum().item(), y[0, 0, 0, 0].tolist())
for f in [lambda: nn.CircularPad1d(1)(torch.ones(3)), lambda: nn.CircularPad2d(1)(torch.ones(3, 3)), lambda: nn.CircularPad3d(1)(torch.ones(1, 1, 1, 1, 1, 1))]:
    try: f()
    except Exception as e: print(type(e).__name__, e)
