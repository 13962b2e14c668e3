import torch
print(torch.tensor([float('nan'), float('inf'), 1e30]).long(), int(torch.tensor(1e30)))
