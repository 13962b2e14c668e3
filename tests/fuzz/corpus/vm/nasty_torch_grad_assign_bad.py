import torch
x = torch.ones(2, requires_grad=True)
x.grad = torch.ones(3)
x.grad = 5
