# nn.Embedding's options (max_norm renormalises the looked-up rows of the
# weight in place; scale_grad_by_freq; repr) and torch.Tensor's methods reached
# through the class.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
e = nn.Embedding(5, 3, max_norm=1.0)
idx = torch.tensor([[0, 2], [2, 4]])
out = e(idx)
print(out.detach())
print(e.weight)  # rows 0, 2 and 4 scaled to norm 1, rows 1 and 3 untouched
out.sum().backward()
print(e.weight.grad)
print(e, nn.Embedding(4, 2, padding_idx=1, norm_type=1.0, scale_grad_by_freq=True))

w = torch.randn(4, 2)
print(F.embedding(torch.tensor([1, 3, 1]), w, max_norm=0.5, norm_type=1.0))
print(w)  # rows 1 and 3 renormalised in place
w2 = torch.randn(4, 2, requires_grad=True)
o2 = F.embedding(torch.tensor([1, 1, 2]), w2, scale_grad_by_freq=True)
o2.sum().backward()
print(w2.grad)
m = nn.Embedding(6, 2, scale_grad_by_freq=True)
m(torch.tensor([0, 0, 0, 5])).sum().backward()
print(m.weight.grad)

# Methods through the class: torch.Tensor.add(a, b) is a.add(b).
a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
print(torch.Tensor.add(a, b), torch.Tensor.sum(a), torch.Tensor.view(a, 2, 1).shape)
print(hasattr(torch.Tensor, "exponential_"), hasattr(torch.Tensor, "no_such_method"), callable(torch.Tensor.mul))
print(list(map(torch.Tensor.item, [a.sum(), b.sum()])))
try:
    torch.Tensor.add(1, 2)
except TypeError as err:
    print("TypeError:", err)
