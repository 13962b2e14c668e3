import torch
x = torch.ones(1, 1).expand(10**6, 10**6).clone()
