import torch
print(torch.ones(2, 2).transpose(-2**63, 2**63 - 1))
