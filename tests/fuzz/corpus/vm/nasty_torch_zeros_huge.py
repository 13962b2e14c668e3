import torch
x = torch.zeros(10**6, 10**6)
