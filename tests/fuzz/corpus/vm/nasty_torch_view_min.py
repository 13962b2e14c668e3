import torch
print(torch.ones(4).view(-2**63))
