import torch
a = [1]
a.append(a)
torch.tensor(a)
