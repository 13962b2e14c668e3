import torch
x = torch.ones(1).expand(2**31, 2**31)
print(x.shape, x[5, 7], x.stride(), x.numel())
