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
parts = x.split(4)
print([p.tolist() for p in parts], [p.tolist() for p in torch.split(x, [2, 3, 5])])
parts[1][0] = 100.0
print(x.tolist())
m = torch.arange(6).reshape(2, 3)
print([r.tolist() for r in m.unbind(0)], [r.tolist() for r in torch.unbind(m, 1)])
st = torch.arange(6.0).as_strided((2, 2), (1, 2))
print(st.tolist(), torch.as_strided(torch.arange(9.0), (3,), (4,)).tolist())
un = x.unsqueeze(0)
un[0, 0] = -5.0
print(x[0].item())
e = torch.zeros(3)
ex = e.expand(2, 3)
e[1] = 7.0
print(ex.tolist())
d = x.detach()
d[1] = 11.0
print(x[1].item())
cl = x.clone()
cl[2] = 0.0
print(x[2].item(), cl[2].item())
r = x.reshape(2, 5)
r[1, 0] = 55.0
print(x[5].item())
