import torch
print(torch.ones(5).gather(0, torch.tensor([-2**63])))
