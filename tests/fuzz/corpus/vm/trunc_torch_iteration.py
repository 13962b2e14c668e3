import torch
a = torch.arange(6).reshape(3, 2)
for row