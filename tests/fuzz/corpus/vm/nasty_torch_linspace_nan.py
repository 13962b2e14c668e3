import torch
print(torch.linspace(float('nan'), float('inf'), 3), torch.arange(0, float('nan'), 1))
