# torch.unravel_index: flat argmax positions back to (row, col) and friends,
# with negative and out-of-range indices wrapped as PyTorch does, and its
# argument errors.
import torch

torch.manual_seed(0)
heat = torch.rand(2, 4, 5)
flat = heat.flatten(1).argmax(1)
rows, cols = torch.unravel_index(flat, heat.shape[1:])
print(flat.tolist(), rows.tolist(), cols.tolist())
print(all(heat[i, rows[i], cols[i]] == heat[i].max() for i in range(2)))
print(torch.unravel_index(torch.tensor([4, 1, -1, 6, -7]), (2, 3)))
print(torch.unravel_index(torch.tensor(5), (2, 3)), torch.unravel_index(torch.tensor(3), 5))
print(torch.unravel_index(torch.tensor([[1, 2], [3, 7]]), torch.Size([2, 2, 2])))
print(torch.unravel_index(torch.tensor(0), ()), torch.unravel_index(torch.tensor([7], dtype=torch.int32), [2, 4]))
topv, topi = heat[0].flatten().topk(3)
print([tuple(c.tolist() for c in torch.unravel_index(i, (4, 5))) for i in topi])


def attempt(fn):
    try:
        print('ok', fn())
    except Exception as e:
        print(type(e).__name__, e)


attempt(lambda: torch.unravel_index(torch.tensor([1.0]), (2, 3)))
attempt(lambda: torch.unravel_index(torch.tensor([True]), (2,)))
attempt(lambda: torch.unravel_index(torch.tensor([1]), (2, -3)))
attempt(lambda: torch.unravel_index(torch.tensor(1), 3.0))
