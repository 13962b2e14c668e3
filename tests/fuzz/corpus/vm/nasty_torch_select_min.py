import torch
print(torch.ones(5).select(0, -2**63))
