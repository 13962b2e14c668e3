import torch
print(torch.ones(5)[-2**63:2**63 - 1:2**62])
