# Views share storage: writes through a view show in the base and vice versa.
import torch
base = torch.zeros(3, 4)
row = base[1]
row.fill_(1.0)
col = base[:, 2]
col.add_(5.0)
print(base.tolist())
v = base.view(12)
v[0] = 9.0
print(base[0, 0].item(), v.shape)
n = base.narrow(1, 1, 2)
n.mul_(2)
print(base.tolist(), n.shape)
sel = base.select(0, 2)
sel[3] = -1.0
print(base[2].tolist())
sl = base[::2, 1:]
print(sl.shape, sl.stride(), sl.tolist())
sl.zero_()
print(base.tolist())
t = base.t()
t[0, 1] = 42.0
print(base[1, 0].item())
x = torch.arange(10.0)
a, b, c = x.chunk(3)
print(a.tolist(), b.tolist(), c.tolist(), [p.shape for p in torch.chunk(x, 4)])
parts = x.