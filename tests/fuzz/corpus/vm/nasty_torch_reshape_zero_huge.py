import torch
x = torch.ones(0).reshape(0, 2**62)
print(x.shape, x.sum())
print(x.t().contiguous().shape)
