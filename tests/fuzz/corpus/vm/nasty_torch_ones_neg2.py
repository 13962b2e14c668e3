import torch
x = torch.ones(3, -2)
