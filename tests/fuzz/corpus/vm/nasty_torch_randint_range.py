import torch
print(torch.randint(-2**63, 2**63 - 1, (3,)))
