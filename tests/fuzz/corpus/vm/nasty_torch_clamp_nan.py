import torch
print(torch.clamp(torch.tensor([1.0, float('nan')]), float('nan'), 0))
