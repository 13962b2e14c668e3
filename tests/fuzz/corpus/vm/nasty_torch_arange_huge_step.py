import torch
x = torch.arange(0, 1, 1e-15)
