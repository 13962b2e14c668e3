# Index assignment (setitem): scalars, tensors with broadcasting, slices, masks, index tensors;
# in-place arithmetic through indexing.
import torch
m = torch.zeros(3, 4)
m[0] = 1.0
m[1, 2] = 5.0
m[:, 3] = torch.tensor([7.0, 8.0, 9.0])
m[2, :2] = torch.tensor([-1.0, -2.0])
print(m.tolist())
m[m > 4] = 0.5
print(m.tolist())
m[torch.tensor([0, 2])] = torch.tensor([3.0, 3.0, 3.0, 3.0])
print(m.tolist())
m[1] += 10
m[:, 0] *= 2
print(m.tolist())
m[...] = 0.0
print(m.sum().item())
m[1:, 1:] = torch.ones(2, 3) * 4
print(m.tolist())
v = torch.arange(6.0)
v[::2] = torch.tensor([10.0, 20.0, 30.0])
v[-1] = 99
print(v.tolist())
v[torch.tensor([0, 1])] += 1
print(v.tolist())
i = torch.zeros(2, 2, dtype=torch.int64)
i[0, 1] = 7
i[1] = 3
print(i.tolist(), i.dtype)
b = torch.tensor([1.0, 2.0, 3.0, 4.0])
b[b < 3] = b[b < 3] * 10
print(b.tolist())
w = torch.zeros(2, 3)
w[0][1] = 4.0
print(w.tolist())
t = torch.zeros(3)
t[1] = torch.tensor(2.5)
print(t.tolist())
try:
    t[0:2] = torch.ones(3)
except RuntimeError as err:
    print(type(err).__name__)
x = torch.zeros(4)
x.masked_fill_(torch.tensor([True, False, True, False]), 2.0)
print(x.tolist(), x.masked_fill(x == 0, -1.0).tolist())

# index_put_ / index_put: assignment through a tuple of index tensors, and
# accumulate=True, where repeated positions add up; torch.where(cond) as nonzero's tuple.
acc = torch.zeros(5, dtype=torch.long)
acc.index_put_((torch.tensor([0, 0, 2]),), torch.tensor([1, 2, 3]), accumulate=True)
print(acc)
grid = torch.zeros(3, 4)
grid.index_put_((torch.tensor([0, 2, 0]), torch.tensor([1, 3, 1])), torch.tensor([1.5, 2.0, 0.25]), accumulate=True)
print(grid)
print(grid.index_put((torch.tensor([1]),), torch.tensor(7.0)))
print(grid.index_put((torch.tensor([2, 2]),), torch.tensor([9.0, 8.0, 7.0, 6.0]), accumulate=True))
try:
    grid.index_put((None, torch.tensor([0, 2])), torch.tensor(1.0))
except TypeError as err:
    print("TypeError", err)
print(grid)
w = torch.zeros(2, 3, requires_grad=True)
out = w.index_put((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), accumulate=True)
(out * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(out, w.grad)
print(torch.where(grid > 1))
print(torch.where(torch.tensor([[True, False], [False, True]])))
