import torch
x = torch.ones(*([1] * 200))
print(x.shape)
print(x)
