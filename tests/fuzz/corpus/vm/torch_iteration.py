import torch
a = torch.arange(6).reshape(3, 2)
for row in a:
    print(row, row.sum().item())
for x in torch.tensor([1.5, 2.5]):
    print(float(x), int(x), bool(x), x.item())
print(list(torch.tensor([])), [t.tolist() for t in a.unbind(1)], len(torch.ones(4, 2)), dict(zip(['a', 'b'], torch.tensor([1, 2]))))
try:
    for x in torch.tensor(1.0):
        pass
except TypeError as e:
    print("TypeError")
try:
    len(torch.tensor(1.0))
except TypeError as e:
    print("TypeError")
print(bool(torch.tensor([0])), int(torch.tensor([7])), float(torch.tensor(2)))
try:
    bool(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError")
