import torch
print(torch.tensor([-2**63]).abs(), -torch.tensor([-2**63]))
