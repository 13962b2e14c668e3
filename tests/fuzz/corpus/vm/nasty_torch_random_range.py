import torch
x = torch.zeros(3, dtype=torch.int64)
print(x.random_(-2**63, 2**63 - 1))
