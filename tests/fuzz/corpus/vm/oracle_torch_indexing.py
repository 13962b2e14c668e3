# Tensor indexing: ints, slices, None, Ellipsis, negative indices, index tensors, boolean masks,
# and the index ops (index_select, gather, scatter_add, index_add, index_copy, nonzero).
import torch
x = torch.arange(24.0).reshape(2, 3, 4)
print(x[1].shape, x[1, 2].tolist(), x[1, 2, 3].item(), x[-1, -1, -1].item(), x[0][1][2].item())
print(x[:, 1].tolist(), x[..., 0].tolist(), x[0, :, ::2].tolist(), x[:, -2:, 1:3].shape, x[1:, 1].shape)
print(x[None].shape, x[:, None].shape, x[..., None].shape, x[0, None, 1].shape, x[1, ...].shape)
idx = torch.tensor([2, 0, 2])
m = torch.arange(12.0).reshape(3, 4)
print(m[idx].tolist(), m[:, idx].tolist(), m[idx, torch.tensor([0, 1, 3])].tolist())
print(m[torch.tensor([[0, 1], [2, 2]])].shape, m[[0, 2]].tolist(), m[1, [3, 0]].tolist())
mask = m > 6
print(m[mask].tolist(), m[m % 2 == 0].tolist(), m[torch.tensor([True, False, True])].tolist())
print(torch.index_select(m, 0, torch.tensor([1, 1])).tolist(), m.index_select(1, torch.tensor([3, 0])).tolist())
g = torch.tensor([[0, 0], [1, 0], [3, 2]])
print(torch.gather(m, 1, g).tolist(), m.gather(0, torch.tensor([[2, 1, 0, 0]])).tolist())
src = torch.ones(2, 4)
print(torch.zeros(3, 4).scatter_add(0, torch.tensor([[0, 1, 2, 0], [2, 2, 2, 2]]), src).tolist())
print(torch.zeros(5).index_add(0, torch.tensor([0, 4, 0]), torch.tensor([1.0, 2.0, 3.0])).tolist())
print(torch.zeros(3, 2).index_copy(0, torch.tensor([2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])).tolist())
print(torch.nonzero(torch.tensor([[0, 1], [2, 0]])).tolist(), torch.tensor([0.0, 3.0, 0.0, 1.0]).nonzero().tolist())
s = torch.tensor([5.0, 6.0, 7.0])
print(s[0], s[-1].item(), s[1:].tolist(), s[torch.tensor(1)].item(), s[torch.tensor([True, False, True])].tolist())
v = x[0, 1:]
print(v.shape, v.stride(), v.is_contiguous())
try:
    m[3]
except IndexError as err:
    print(type(err).__name__)
try:
    m[0, 0, 0]
except IndexError as err:
    print(type(err).__name__)
try:
    m[torch.tensor([5])]
except (IndexError, RuntimeError) as err:
    print("index error")
