import torch
print(torch.ones(5).narrow(0, -2**63, 1))
