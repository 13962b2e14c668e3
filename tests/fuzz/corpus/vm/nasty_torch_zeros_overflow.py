import torch
x = torch.zeros(2**40, 2**40)
