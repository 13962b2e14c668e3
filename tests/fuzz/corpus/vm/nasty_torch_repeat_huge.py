import torch
print(torch.ones(2).repeat(10**12))
