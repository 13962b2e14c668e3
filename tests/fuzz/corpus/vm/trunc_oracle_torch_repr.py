# Printing tensors the way PyTorch does (small tensors), and Size / dtype / device objects.
import torch
print(torch.tensor([1.0, 2.0]))
print(torch.tensor([1.5, -2.25, 3.0]))
print(torch.tensor([0.1, 0.2, 0.3]))
print(torch.tensor([1e-5, 1.0]))
print(torch.tensor([123456.0, 1.0]))
print(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(torch.tensor([[1, -2], [30, 4]]))
print(torch.tensor([True, False]))
print(torch.tensor(3.0), torch.tensor(-7), torch.tensor(False))
print(torch.tensor([1.0, 2.0], dtype=torch.float64))
print(to