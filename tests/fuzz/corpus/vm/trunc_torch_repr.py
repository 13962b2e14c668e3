import torch
print(torch.tensor(1.5), torch.tensor([1e10, 1e-10]), torch.tensor([float('nan'), float('inf'), -float('inf')]))
print(torch.arange(2000.0), torch.zeros(2, 0,