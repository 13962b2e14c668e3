import torch
print(torch.ones(4).reshape(-1, -1, 2))
