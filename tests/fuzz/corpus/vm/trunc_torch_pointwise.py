import torch
a = torch.tensor([[1.0, -2.0], [3.0, 0.5]])
b = torch.tensor([2.0, 4.0])
i = torch.tensor([7, -3])
print(a + b, a - 1, 2 * a, a / b, a // b, a % b, a ** 2, 2 ** a, -a, abs(a))
print(torch.add(a, b, alpha=2), torch.