import torch
a = torch.arange(12.0).reshape(3, 4)
print(a[0], a[-1, -1], a[1:, ::2], a[None, 1].shape, a[..., 1], a[a > 5], a[torch.tensor([2, 0])], a[[0, 2], [1, 3]])
a[0] = 100
a[:, 1] = torch.tensor([7.0, 8.0, 9.0])
a[a > 50] = -1
a[1, 2] += 5
print(a)
print(a.index_select(1, torch.tensor([0, 3])), a.gather(1, torch.tensor([[0], [1], [2]])), a.nonzero().shape)
z = torch.zeros(3, 4)
print(z.scatter_add(0, torch.tensor([[0, 1, 2, 0]]), torch.ones(1, 4)), z.index_add(0, torch.tensor([1]), torch.ones(1, 4)))
print(z.index_copy(1, torch.tensor([3]), torch.ones(3, 1)), z.scatter(1, torch.tensor([[1], [0], [3]]), 2.0))
print(a[1].item() if False else a[1, 1].item(), a.tolist(), a[0, 0].tolist(), torch.tensor([]).tolist())
