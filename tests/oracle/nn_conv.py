# A small CNN (Conv2d -> BatchNorm2d -> ReLU -> MaxPool2d -> Flatten -> Linear)
# trained for a few SGD steps, then run in eval() mode; plus the functional
# conv, pooling, normalization and padding ops with their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t, n=4):
    return [round(v, n) for v in t.detach().reshape(-1).tolist()]


torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(3, 4, 3, padding=1),
    nn.BatchNorm2d(4),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(4 * 3 * 3, 5),
)
# (BatchNorm2d's repr differs between torch 1.13 and 2.x: not printed.)
print(net[0], net[2], net[3], net[4], net[5])
x = torch.randn(6, 3, 6, 6)
y = torch.tensor([0, 1, 2, 3, 4, 0])
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
bn = net[1]
print('running_mean', r(bn.running_mean))
print('running_var', r(bn.running_var))
print('tracked', bn.num_batches_tracked.item())
net.eval()
with torch.no_grad():
    print('eval', r(net(x[:2])))
print(sorted(net.state_dict().keys()))

# Functional forms: strides, dilation, groups, padding='same', 1-d.
w = torch.randn(4, 2, 3, 2, requires_grad=True)
b = torch.randn(4, requires_grad=True)
inp = torch.randn(2, 4, 7, 6, requires_grad=True)
out = F.conv2d(inp, w, b, stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)
print(list(out.shape), r(out.sum((0, 2, 3)), 3))
out.pow(2).sum().backward()
print(r(w.grad.sum((1, 2, 3)), 2), r(b.grad, 2), round(inp.grad.abs().sum().item(), 1))
s = F.conv2d(torch.randn(1, 2, 5, 5), torch.randn(3, 2, 4, 3), padding='same')
print(list(s.shape), round(s.sum().item(), 3))
c1 = nn.Conv1d(2, 3, 3, stride=2, padding=1, bias=False)
print(c1, list(c1(torch.randn(2, 2, 9)).shape))
print(nn.Conv2d(2, 4, (3, 2), stride=2, dilation=2, groups=2, padding_mode='reflect'))

# Pooling.
z = torch.randn(1, 2, 5, 5, requires_grad=True)
m, idx = F.max_pool2d(z, 3, stride=2, padding=1, return_indices=True)
print(r(m), idx.reshape(-1).tolist())
a = F.avg_pool2d(z, 2, ceil_mode=True, count_include_pad=False)
print(list(a.shape), r(a))
ad = F.adaptive_avg_pool2d(z, (2, 3))
(m.sum() + a.sum() * 2 + ad.sum() * 3).backward()
print(r(ad, 3), r(z.grad))
print(nn.MaxPool2d(2), nn.AvgPool2d(3, 1, 1), nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveMaxPool2d(2))
am, ai = F.adaptive_max_pool2d(z, (2, 3), return_indices=True)
am.sum().backward()
print(r(am), ai.reshape(-1).tolist(), r(z.grad))
print(r(F.max_pool1d(torch.arange(8.).reshape(1, 1, 8), 3, 2)), r(F.avg_pool1d(torch.arange(8.).reshape(1, 1, 8), 2)))

# Normalization and padding.
g = torch.randn(2, 6, 3, requires_grad=True)
gn = nn.GroupNorm(3, 6)
print(r(gn(g)[0]))
bn1 = nn.BatchNorm1d(6, momentum=None)
for _ in range(2):
    bn1(g)
print(r(bn1.running_mean), r(bn1.running_var))
p = torch.arange(12.).reshape(1, 1, 3, 4)
print(r(F.pad(p, (1, 2), value=-1.0)))
print(r(F.pad(p, (1, 1, 2, 0), mode='reflect')))
print(r(F.pad(p[0], (2, 1), mode='replicate')))
print(r(F.pad(p, (1, 1, 1, 1), mode='circular')))
print(nn.ZeroPad2d(1), nn.ConstantPad2d((1, 0, 2, 0), 3.5))

# Interpolation.
u = torch.randn(1, 2, 3, 4, requires_grad=True)
print(r(F.interpolate(u, scale_factor=2)[0, 0, :2]))
print(r(F.interpolate(u, size=(5, 7), mode='bilinear')[0, 1]))
print(r(F.interpolate(u, size=(4, 6), mode='bilinear', align_corners=True)[0, 0]))
print(r(F.interpolate(torch.arange(5.).reshape(1, 1, 5), size=8, mode='linear')))
up = nn.Upsample(scale_factor=2, mode='bilinear')
up(u).pow(2).sum().backward()
print(r(u.grad, 3))  # (Upsample's repr quotes the mode since torch 2.x: not printed.)
print(r(F.interpolate(u, size=(5, 7), mode='bicubic')[0, 1]))
print(r(F.interpolate(u, scale_factor=2, mode='bicubic', align_corners=True)[0, 0, 1]))
ub = u.detach().clone().requires_grad_(True)
F.interpolate(ub, size=(4, 5), mode='bicubic').pow(2).sum().backward()
print(r(ub.grad, 3))
