import torch
print(torch.ones(5).index_select(0, torch.tensor([2**63 - 1])))
