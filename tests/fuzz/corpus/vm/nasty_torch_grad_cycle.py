import torch
x = torch.ones(2, requires_grad=True)
for i in range(2000):
    x = x * 1.0001
x.sum().backward()
print('ok')
