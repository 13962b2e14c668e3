import torch
x = torch.ones(1)
for i in range(500):
    x = x.unsqueeze(0)
print(x.dim())
print(x)
