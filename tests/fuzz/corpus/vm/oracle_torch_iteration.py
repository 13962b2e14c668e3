# Tensors as iterables and in boolean contexts; Python scalars from tensors.
import torch
m = torch.arange(6.0).reshape(3, 2)
for row in m:
    print(row.tolist(), row.shape)
print(len(m), [r.sum().item() for r in m], list(m)[1].tolist())
for a, b in m:
    print(a.item(), b.item())
for i, v in enumerate(torch.tensor([10, 20])):
    print(i, v.item(), v)
total = 0.0
for v in torch.tensor([0.5, 1.5, 2.0]):
    total += v.item()
print(total)
print(sum([t.item() for t in torch.tensor([1.0, 2.0, 3.0])]))
if torch.tensor(1.0) > 0:
    print("scalar tensor in if")
if torch.tensor([0.0]):
    print("not printed")
else:
    print("single zero is falsy")
print(bool(torch.tensor([3])), not torch.tensor(0), float(torch.tensor([2.5])), int(torch.tensor(7.9)))
try:
    if torch.tensor([1.0, 2.0]):
        pass
except RuntimeError as err:
    print(type(err).__name__)
try:
    len(torch.tensor(3.0))
except TypeError as err:
    print(type(err).__name__)
x = torch.tensor([3.0, 1.0, 2.0])
print(max(x.tolist()), sorted(x.tolist()), x.tolist().index(1.0), [int(v) for v in x.long()])
print(torch.tensor(2.0) * 3 == 6, (torch.tensor(2.0) * 3).item() == 6.0, 3 < torch.tensor(4))
zipped = [(a.item(), b) for a, b in zip(torch.tensor([1, 2]), ["x", "y"])]
print(zipped)
print(list(map(lambda t: t.item() * 2, torch.tensor([1.5, 2.5]))))
print([t.shape for t in torch.zeros(2, 3, 4)], [t.tolist() for t in reversed(list(torch.tensor([1, 2, 3])))])
