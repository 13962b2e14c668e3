# A torch.compile'd pointwise chain and a softmax: each compiles to one fused kernel.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


@torch.compile
def chain(x, w, b):
    y = x * w + b
    return 0.5 * y * (1.0 + torch.tanh(0.7978845608 * (y + 0.044715 * y * y * y)))


@torch.compile
def probs(x):
    return F.softmax(x * 2.0, dim=-1)


x = torch.randn(64, 40)
w = torch.randn(40)
b = torch.randn(40)
for step in range(3):
    y = chain(x, w, b)
    p = probs(y)
    print(step, round(y.sum().item(), 4), round(p.sum().item(), 4), round(p[3, 5].item(), 6))
