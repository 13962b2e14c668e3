import torch
print(torch.ones(2).unsqueeze(-2**63))
