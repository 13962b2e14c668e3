# torch.nonzero on a computed mask: the number of rows is data-dependent.
# expect graphs: 0
# expect breaks: none
import torch


@torch.compile
def active_units(x, w):
    h = torch.relu(x @ w)
    idx = torch.nonzero(h.sum(dim=0))
    return idx.flatten()


x = torch.tensor([[1.0, -1.0], [2.0, 0.5]])
w = torch.tensor([[1.0, -1.0, 0.5], [0.0, 1.0, -2.0]])
print(active_units(x, w))
