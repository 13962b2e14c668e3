import torch
print(sorted([torch.tensor(2), torch.tensor(1)]), sorted([torch.ones(2), torch.zeros(2)]))
