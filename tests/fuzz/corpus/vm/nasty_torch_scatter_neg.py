import torch
print(torch.zeros(5).scatter_add(0, torch.tensor([-1]), torch.ones(1)))
