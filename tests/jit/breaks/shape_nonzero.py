# torch.nonzero on a computed mask: the number of rows is data-dependent.
# Graph 1 runs up to nonzero, whose output size needs h's values; nonzero
# then runs at once, and the flatten is a view of its finished output.
# expect graphs: 1
# expect breaks: data_dependent_shape@12
import torch


@torch.compile
def active_units(x, w):
    h = torch.relu(x @ w)
    idx = torch.nonzero(h.sum(dim=0))
    return idx.flatten()


x = torch.tensor([[1.0, -1.0], [2.0, 0.5]])
w = torch.tensor([[1.0, -1.0, 0.5], [0.0, 1.0, -2.0]])
print(active_units(x, w))
