import torch
x = torch.ones(1).view(*([1] * 1000))
print(x.dim())
print(x.sum())
