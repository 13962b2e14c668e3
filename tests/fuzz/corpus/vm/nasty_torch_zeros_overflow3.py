import torch
x = torch.zeros(2**31, 2**31, 2**31)
