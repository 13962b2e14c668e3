# F.pdist, the deprecated F.upsample wrappers, the *_with_indices pools and
# nn.NLLLoss2d.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
for p in [2, 1, 0, 0.5, 3.0, float('inf')]:
    d = F.pdist(x, p)
    x.grad = None
    d.backward(torch.arange(1.0, 7.0))
    print('pdist', p, r(d), d.grad_fn.name(), r(x.grad))
z = torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 0.0]], requires_grad=True)
d = torch.pdist(z)
d.sum().backward()
print(r(d), r(z.grad))
print(r(F.pdist(torch.randn(1, 3))), r(F.pdist(torch.randn(3, 0))))
for f in [lambda: F.pdist(torch.randn(2, 2, 2)), lambda: F.pdist(torch.arange(4).view(2, 2)), lambda: F.pdist(x, -1)]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)

img = torch.arange(4.0).view(1, 1, 2, 2)
print(r(F.upsample(img, scale_factor=2)), r(F.upsample(img, size=3, mode='bilinear', align_corners=False)))
print(r(F.upsample_nearest(img, size=(3, 2))), r(F.upsample_bilinear(img, scale_factor=1.5)))

s = torch.randn(1, 2, 6)
v, i = F.max_pool1d_with_indices(s, 2)
print(r(v), i.flatten().tolist())
v, i = F.max_pool2d_with_indices(s.view(1, 1, 3, 4), 2, 1)
print(r(v), i.flatten().tolist())
v, i = F.adaptive_max_pool1d_with_indices(s, 4)
print(r(v), i.flatten().tolist())
v, i = F.adaptive_max_pool2d_with_indices(s.view(1, 1, 3, 4), (2, 2))
print(r(v), i.flatten().tolist())

m = nn.NLLLoss2d(ignore_index=1)
logp = F.log_softmax(torch.randn(2, 3, 2, 2), 1)
t = torch.tensor([[[0, 1], [2, 2]], [[1, 0], [0, 2]]])
print(m, m.ignore_index, round(m(logp, t).item(), 4), round(nn.NLLLoss(ignore_index=1)(logp, t).item(), 4))
