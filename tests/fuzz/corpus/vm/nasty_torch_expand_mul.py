import torch
x = torch.ones(1).expand(10**12) * 2
