import torch
torch.manual_seed(2**63 - 1)
print(torch.rand(2))
torch.manual_seed(-2**63)
print(torch.rand(2))
