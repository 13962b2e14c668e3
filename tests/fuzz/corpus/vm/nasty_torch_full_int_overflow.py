import torch
print(torch.full((2,), 2**63 - 1) + 1, torch.tensor([2**63 - 1]) * torch.tensor([2]))
