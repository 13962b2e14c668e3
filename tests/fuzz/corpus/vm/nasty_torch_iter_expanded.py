import torch
for row in torch.ones(1, 1).expand(10**12, 1):
    pass
