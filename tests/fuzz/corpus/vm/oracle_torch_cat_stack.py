# cat / stack / tril / triu / equal / allclose.
import torch
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([[5.0, 6.0]])
print(torch.cat([a, b]).tolist(), torch.cat([a, b], 0).shape, torch.cat((a, a), dim=1).tolist())
print(torch.cat([a, a.t()], dim=-1).shape, torch.cat([torch.zeros(0), torch.ones(2)]).tolist())
print(torch.stack([a, a]).shape, torch.stack([a, a], dim=1).tolist(), torch.stack([a, a], -1).shape)
print(torch.stack([torch.tensor(1.0), torch.tensor(2.0)]).tolist(), torch.stack((b[0], b[0] * 2)).tolist())
m = torch.arange(1.0, 17.0).reshape(4, 4)
print(torch.tril(m).tolist())
print(torch.triu(m).tolist())
print(m.tril(-1).tolist(), m.triu(1).tolist())
print(torch.tril(torch.ones(3, 3)).tolist(), m.tril(diagonal=1)[0].tolist())
mask = torch.tril(torch.ones(4, 4)) == 0
print(m.masked_fill(mask, float("-inf")).tolist())
print(torch.equal(a, a.clone()), torch.equal(a, b), torch.allclose(a, a + 1e-7), torch.allclose(a, a + 1e-3),
      torch.allclose(a, a + 0.01, atol=0.1), a.equal(a))
try:
    torch.cat([a, torch.ones(2, 3)])
except RuntimeError as err:
    print(type(err).__name__)
try:
    torch.stack([a, b])
except RuntimeError as err:
    print(type(err).__name__)
print(torch.cat([torch.tensor([1, 2]), torch.tensor([3])]).tolist(), torch.cat([a]).shape)
