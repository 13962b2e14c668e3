import torch
print(torch.arange(-2**63, 2**63 - 1, 2**62))
