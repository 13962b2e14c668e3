# F.max_unpool1d/2d and nn.MaxUnpool1d/2d over max_pool's return_indices.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4, requires_grad=True)
y, i = F.max_pool2d(x, 2, return_indices=True)
u = F.max_unpool2d(y, i, 2)
print(tuple(u.shape), u.grad_fn.name(), r(u))
u.backward(torch.arange(32.0).view(1, 2, 4, 4))
print(r(x.grad))
print(tuple(F.max_unpool2d(y, i, 2, output_size=(1, 2, 5, 5)).shape), tuple(F.max_unpool2d(y[0], i[0], 2).shape))
print(r(F.max_unpool2d(y, i, 2, output_size=[5, 4])))
# Overlapping windows can pick one element twice: it gets either value, and both gradients.
z = torch.tensor([[[[1.0, 2.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]]], requires_grad=True)
p, pi = F.max_pool2d(z, 2, 1, return_indices=True)
q = p * 1
q.retain_grad()
u = F.max_unpool2d(q, pi, 2, 1)
u.sum().backward()
print(pi.flatten().tolist(), r(u), r(q.grad))
print(tuple(F.max_unpool2d(y, i, 2, padding=2).shape))

x1 = torch.randn(1, 2, 5, requires_grad=True)
y1, i1 = F.max_pool1d(x1, 2, return_indices=True)
u = F.max_unpool1d(y1, i1, 2)
print(tuple(u.shape), u.grad_fn.name(), u.grad_fn.next_functions[0][0].name(), r(u))
u = F.max_unpool1d(y1, i1, 2, output_size=[5])
u.sum().backward()
print(r(u), r(x1.grad))
print(r(F.max_unpool1d(y1[0], i1[0], 2)))

m = nn.MaxUnpool2d(2)
print(m, nn.MaxUnpool2d((2, 3), 1, 1), nn.MaxUnpool1d(2), nn.MaxUnpool1d(3, 2, 1))
print(r(m(y, i)))
m1 = nn.MaxUnpool1d(2)
print(r(m1(y1, i1, output_size=x1.size())))
pool = nn.MaxPool2d(2, 2, return_indices=True)
o, oi = pool(x)
print(r(m(o, oi, output_size=x.size()) - F.max_unpool2d(o, oi, 2)))

for f in [lambda: F.max_unpool2d(y, i + 20, 2), lambda: F.max_unpool2d(y, i - 20, 2),
          lambda: F.max_unpool2d(y, i.float(), 2), lambda: F.max_unpool2d(y, i[:, :1], 2),
          lambda: F.max_unpool2d(y[0, 0], i[0, 0], 2), lambda: F.max_unpool2d(y, i, 2, output_size=[7, 7]),
          lambda: F.max_unpool2d(y, i, 2, output_size=[5]), lambda: F.max_unpool1d(y1, i1, 2, output_size=[2, 3, 5]),
          lambda: F.max_unpool1d(y1, i1 - 5, 2)]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)
