# Tensor.register_hook: hooks see the gradient arriving for their tensor, may replace it (a
# returned tensor) or only look (None), run in registration order, and are removed by their
# handle; on a leaf they run before .grad accumulates, on a non-leaf before retain_grad and its
# grad_fn. Also nn.Module's dtype conversions, which keep each Parameter object.
import torch
import torch.nn as nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []
h1 = x.register_hook(lambda g: seen.append(g.clone()))
h2 = x.register_hook(lambda g: g * 2)
h3 = x.register_hook(lambda g: g + 1)
(x * x).sum().backward()
print("leaf grad", x.grad, "seen", seen)
h2.remove()
x.grad = None
(x * x).sum().backward()
print("after remove", x.grad)
h1.remove()
h3.remove()

a = torch.tensor([1.0, -1.0], requires_grad=True)
y = a * 3
y.register_hook(lambda g: g * 10)
y.retain_grad()
z = (y * y).sum()
z.backward()
print("non-leaf", y.grad, a.grad)

# Gradient reversal, as domain-adaptation scripts write it.
w = torch.tensor([0.5, 1.5], requires_grad=True)
feat = w * 2
feat.register_hook(lambda g: -g)
(feat ** 2).sum().backward()
print("reversed", w.grad)

# Hooks in a training loop: clip each weight's gradient elementwise.
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
for p in net.parameters():
    p.register_hook(lambda g: g.clamp(-0.1, 0.1))
opt = torch.optim.SGD(net.parameters(), lr=0.5)
data = torch.randn(8, 3)
target = torch.randn(8, 1)
for step in range(5):
    opt.zero_grad()
    loss = ((net(data) - target) ** 2).mean()
    loss.backward()
    opt.step()
    print("step", step, round(loss.item(), 5), round(net[0].weight.grad.abs().max().item(), 5))

try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print("error:", e)

# Module conversions keep the Parameter objects (an optimizer made before still holds them).
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
weight = m[0].weight
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m.double()
print("double", m[0].weight.dtype, m[1].running_mean.dtype, m[1].num_batches_tracked.dtype, m[0].weight is weight)
out = m(torch.ones(4, 2, dtype=torch.float64))
out.sum().backward()
opt.step()
print("stepped", weight.dtype, weight.grad.dtype)
m.float()
print("float", m[0].weight.dtype, m[0].bias.dtype, m[1].running_var.dtype)
m.to(torch.float64)
print("to", m[0].weight.dtype, m.to(torch.float32)[0].weight.dtype)
print("half", nn.Linear(2, 2).half().weight.dtype, nn.Linear(2, 2).to(dtype=torch.bfloat16).bias.dtype)
try:
    m.to(torch.int64)
except TypeError as e:
    print("error:", e)
