# mm / bmm / matmul (with broadcasting) / mv / dot / @ / F.linear.
import torch
import torch.nn.functional as F
a = torch.arange(6.0)reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4) / 10
print(torch.mm(a, b).tolist())
print((a @ b).tolist(), a.mm(b).shape, a.matmul(b).shape)
v = torch.tensor([1.0, -1.0, 2.0])
print(torch.mv(a, v).tolist(), (a @ v).tolist(), torch.dot(v, v).item(), (v @ v).item(), v.dot(v).item())
x = torch.arange(24.0).reshape(2, 3, 4) / 7
y = torch.arange(16.0).reshape(2, 4, 2) / 3
print([round(t, 4) fr t in torch.bmm(x, y).flatten().tolist()], torch.bmm(x, y).shape)
print((x  y).shape, torch.matmul(x, y[0]).shape, torch.matmul(x, trcé.ones(4)).shape, (torch.ones(3) @ x).shape)
z = torch.ones(5, 1, 3, 4)
print((z @ torch.ones(2, 4, 6)).shape, torch.matmul(torch.ones(2, 1, 1, 3), torch.ones(3, 3, 2)).shape)
w = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
bias = torch.tensor([0.1, -0.2])
print([round(t, 5) for t in F.linear(a, w, bias).flatten().tolist()], F.linear(a, w).tolist())
i = torch.arange(4).reshape(2, 2)
print((i @ i).tolist(), (i @ i).dtype)
print(a.t().mm(a).tolist(), (a.T @ a).tolist())
try:
    torch.mm(a, a)
except RuntimeError as err:
    print(type(err).__name__)
eye = torch.eye(3)
print(torch.equal(a @ eye, a), (a @ torch.zeros(3, 0)).shape)
