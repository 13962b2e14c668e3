import torch
print(torch.tensor([1, 2, 3]), torch.tensor([[1.5, 2], [3, 4]]), torch.tensor(True), torch.tensor([]))
print(torch.zeros(2, 3), torch.ones((2,)), torch.full((2, 2), 7), torch.empty(0).shape)
p