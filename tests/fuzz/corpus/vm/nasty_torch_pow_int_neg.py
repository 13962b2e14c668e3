import torch
print(torch.tensor([2, 0]) ** torch.tensor([-1, -1]))
