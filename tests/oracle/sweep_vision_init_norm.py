# F.normalize with orders other than 2, and nn.init.dirac_ (identity conv
# kernels, grouped), checked through the convolutions they make.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()[:6]]


x = torch.randn(4, 3, 5)
print(r(F.normalize(x)), r(F.normalize(x, dim=-1)))
print(r(F.normalize(x, p=1, dim=-1)), r(F.normalize(x, p=1.5, dim=0)))
print(r(F.normalize(x, p=float('inf'), dim=1)), r(F.normalize(torch.zeros(2, 3), p=1)))
g = torch.randn(2, 3, requires_grad=True)
F.normalize(g, p=1).pow(2).sum().backward()
print(r(g.grad))
w = torch.empty(4, 2, 3, 3)
nn.init.dirac_(w)
print(w.sum().item(), w[1, 1].tolist(), w[3].abs().sum().item())
img = torch.randn(1, 2, 5, 5)
print(torch.allclose(F.conv2d(img, w[:2], padding=1), img))
w6 = torch.empty(6, 2, 3)
nn.init.dirac_(w6, groups=2)
print([row.nonzero().flatten().tolist() for row in w6.reshape(6, -1)])
w5 = nn.init.dirac_(torch.empty(2, 2, 1, 3, 2))
print(w5.nonzero().tolist())


def attempt(fn):
    try:
        fn()
        print('ok')
    except Exception as e:
        print(type(e).__name__, e)


attempt(lambda: nn.init.dirac_(torch.empty(3, 3)))
attempt(lambda: nn.init.dirac_(torch.empty(5, 2, 3), groups=2))
