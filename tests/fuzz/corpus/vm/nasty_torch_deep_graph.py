import torch
x = torch.ones(1, requires_grad=True)
y = x
for i in range(5000):
    y = y + 1
print(y.grad_fn is not None)
del y
print('freed')
