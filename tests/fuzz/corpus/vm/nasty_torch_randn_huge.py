import torch
x = torch.randn(2**20, 2**20)
