import torch
a = []
for i in range(100000):
    a = [a]
torch.tensor(a)
