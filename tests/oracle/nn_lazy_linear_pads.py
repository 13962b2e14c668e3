# Lazy modules (LazyLinear, LazyConv*, LazyBatchNorm*: shapes from the first
# input, PyTorch's draws then) and the 3-d and circular padding modules.
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

torch.manual_seed(2)
mods = [nn.LazyConv1d(4, 3), nn.LazyConv2d(6, (2, 3), stride=2, padding=1, groups=2, bias=False),
        nn.LazyConvTranspose1d(3, 2), nn.LazyConvTranspose2d(4, 3, stride=2, output_padding=1),
        nn.LazyBatchNorm1d(), nn.LazyBatchNorm2d(eps=1e-3, momentum=None, affine=False),
        nn.LazyBatchNorm1d(track_running_stats=False), nn.LazyInstanceNorm1d(),
        nn.LazyInstanceNorm2d(affine=False, track_running_stats=False)]
for m in mods:
    print(m, [k for k, _ in m.named_parameters()], [k for k, _ in m.named_buffers()])
print(mods[4].state_dict())
print(isinstance(mods[1], nn.Conv2d), isinstance(mods[3], nn.ConvTranspose2d), isinstance(mods[5], nn.BatchNorm2d),
      isinstance(mods[7], nn.InstanceNorm1d))
inputs = [torch.randn(2, 3, 5), torch.randn(1, 4, 5, 6), torch.randn(2, 5, 4), torch.randn(1, 2, 3, 3),
          torch.randn(4, 3), torch.randn(2, 3, 2, 2), torch.randn(4, 5, 2), torch.randn(2, 3, 4),
          torch.randn(2, 3, 2, 2)]
for m, x in zip(mods, inputs):
    y = m(x)
    print(type(m).__name__, m, tuple(y.shape), [tuple(p.shape) for p in m.parameters()],
          [tuple(b.shape) for b in m.buffers()])
    print(r(y.flatten()[:6]))
print(r(mods[4].running_mean), r(mods[4].running_var), mods[4].num_batches_tracked)
print(r(nn.LazyConv1d(2, 2)(torch.ones(3, 4))))
for f in [lambda: nn.LazyConv2d(4, 3)(torch.randn(3, 3)),
          lambda: nn.LazyConv2d(4, 3, groups=2)(torch.randn(1, 3, 4, 4))]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)

for m in [nn.ZeroPad3d(1), nn.ZeroPad3d((1, 0, 2, 1, 0, 1)), nn.ConstantPad3d(1, 2.5), nn.ReflectionPad3d(1),
          nn.ReplicationPad3d((1, 0, 2, 1, 0, 1)), nn.CircularPad1d(2), nn.CircularPad2d((1, 0, 2, 1)),
          nn.CircularPad3d(1)]:
    print(m)
x = torch.arange(24.0).view(1, 2, 3, 4).requires_grad_()
y = nn.CircularPad2d((1, 0, 2, 1))(x)
print(y.shape, y[0, 0].tolist())
y.sum().backward()
print(x.grad.tolist())
print(nn.CircularPad1d((2, 1))(torch.arange(6.0).view(2, 3)).tolist())
x5 = torch.arange(24.0).view(1, 1, 2, 3, 4)
for m in [nn.ZeroPad3d((1, 0, 2, 1, 0, 1)), nn.ConstantPad3d(1, 2.5), nn.ReflectionPad3d(1),
          nn.ReplicationPad3d((1, 0, 2, 1, 0, 1)), nn.CircularPad3d(1)]:
    y = m(x5)
    print(type(m).__name__, tuple(y.shape), y.sum().item(), y[0, 0, 0, 0].tolist())
for f in [lambda: nn.CircularPad1d(1)(torch.ones(3)), lambda: nn.CircularPad2d(1)(torch.ones(3, 3)),
          lambda: nn.CircularPad3d(1)(torch.ones(1, 1, 1, 1, 1, 1))]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)
