import torch
x = [1.0]
for i in range(64):
    x = [x]
print(torch.tensor(x).shape)
