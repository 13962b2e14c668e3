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
v = 