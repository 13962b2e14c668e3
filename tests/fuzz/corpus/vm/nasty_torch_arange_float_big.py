import torch
print(torch.arange(0.0, 1e30, 1e29))
