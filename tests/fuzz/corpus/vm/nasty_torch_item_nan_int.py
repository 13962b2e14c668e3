import torch
print(int(torch.tensor(float('nan'))))
