import torch
a = []
a.append(a)
print(torch.tensor(a))
