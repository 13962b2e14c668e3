import torch
print(torch.tensor([1, 2, 3]), torch.tensor([[1.5, 2], [3, 4]]), torch.tensor(True), torch.tensor([]))
print(torch.zeros(2, 3), torch.ones((2,)), torch.full((2, 2), 7), torch.empty(0).shape)
print(torch.arange(5), torch.arange(1, 2, 0.25), torch.linspace(0, 1, 5), torch.eye(3), torch.eye(2, 3))
x = torch.ones(2, 2, dtype=torch.float64)
print(torch.zeros_like(x), torch.ones_like(x, dtype=torch.int64), torch.full_like(x, 3.5), x.dtype)
print(torch.tensor([1, 2], dtype=torch.float32).dtype, torch.tensor([1.0]).double().dtype, torch.tensor(3).long())
print(torch.as_tensor([1, 2]), torch.tensor([[1, 2], [3]]) if False else 0)
