import torch
a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, 2.0, 3.0])
print(a @ b, torch.mm(a, b), torch.matmul(a, v), torch.mv(a, v), torch.dot(v, v), v @ v)
print(torch.bmm(a.unsqueeze(0), b.unsqueeze(0)).shape, torch.matmul(torch.ones(2, 1, 2, 3), torch.ones(3, 3, 1)).shape)
print(torch.nn.functional.linear(v, a), torch.equal(a, a), torch.allclose(a, a + 1e-9), torch.ones(2, 0) @ torch.ones(0, 2))
for f in [lambda: a @ a, lambda: torch.mm(a, v), lambda: torch.dot(v, a), lambda: torch.bmm(a, b), lambda: v @ 3,
          lambda: torch.mv(a, torch.ones(2)), la