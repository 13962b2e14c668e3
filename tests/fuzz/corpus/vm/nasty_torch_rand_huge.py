import torch
x = torch.rand(10**12)
