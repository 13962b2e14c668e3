import torch
print(torch.ones(2).sum(2**62))
