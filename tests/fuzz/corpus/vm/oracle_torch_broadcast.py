# Broadcasting between tensors of different ranks and with Python scalars.
import torch
a = torch.arange(6.0).reshape(2, 3)
row = torch.tensor([10.0, 20.0, 30.0])
col = torch.tensor([[1.0], [2.0]])
print((a + row).tolist())
print((a * col).tolist())
print((row + col).tolist(), (row + col).shape)
print((a - 1).tolist(), (2 * a).tolist(), (a / 2).tolist(), (10 - a).tolist())
x = torch.ones(4, 1, 3)
y = torch.arange(2.0).reshape(2, 1)
print((x + y).shape, (x * y).sum().item())
s = torch.tensor(5.0)
print((a + s).tolist(), (s * row).tolist(), (a + s).shape)
print(torch.maximum(a, torch.tensor([2.0, 0.0, 4.0])).tolist())
print(torch.where(a > 2, a, torch.tensor(-1.0)).tolist())
b = a.clone()
b += row
b *= col
print(b.tolist())
e = torch.zeros(3, 1, 2) + torch.zeros(4, 1)
print(e.shape)
try:
    torch.ones(2, 3) + torch.ones(4)
except RuntimeError as err:
    print(type(err).__name__)
try:
    c = torch.ones(3)
    c += torch.ones(2, 3)
except RuntimeError as err:
    print(type(err).__name__)
print((torch.arange(3).reshape(3, 1) * torch.arange(3)).tolist())
print((a > row / 10).tolist(), (a == a.T.T).all().item())
