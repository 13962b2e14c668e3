import torch
print(torch.ones(2) and 1)
