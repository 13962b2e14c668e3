import torch
x = torch.ones(2, requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
