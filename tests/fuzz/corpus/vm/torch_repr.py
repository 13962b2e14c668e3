import torch
print(torch.tensor(1.5), torch.tensor([1e10, 1e-10]), torch.tensor([float('nan'), float('inf'), -float('inf')]))
print(torch.arange(2000.0), torch.zeros(2, 0, 3), torch.tensor([[True, False]]), torch.tensor([123456789012]))
print(torch.ones(2, 2, requires_grad=True) * 2, torch.nn.Parameter(torch.ones(2)), repr(torch.float32), torch.Size([2, 3]))
print(torch.randn(0), torch.tensor([0.1, 0.25]) * 1e-8, torch.tensor([1.0, 2.0]).double(), f"{torch.tensor(2.5):.2f}" if False else 0)
print(str(torch.ones(1)), format(torch.tensor(3.0).item(), '.3f'), torch.arange(30).reshape(3, 10).float() / 7)
