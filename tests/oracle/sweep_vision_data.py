# torch.utils.data details: default_collate keeps a column of strings as a
# tuple and rebuilds namedtuples; ChainDataset and IterableDataset + chains;
# searchsorted with sorter (argsort indices) on 1-D and batched sequences.
import collections
import torch
from torch.utils.data import DataLoader, IterableDataset, ChainDataset, TensorDataset, default_collate

torch.manual_seed(0)
print(list(DataLoader([(1, 2.0, 'a'), (3, 4.0, 'b')], batch_size=2)))
print(default_collate([('x', torch.tensor([1])), ('y', torch.tensor([2]))]))
print(default_collate([{'name': 'p', 'v': 1}, {'name': 'q', 'v': 2}]))
print(default_collate([[1, 'a'], [2, 'b']]))
Point = collections.namedtuple('Point', ['x', 'y'])
b = default_collate([Point(1, 2.5), Point(3, 4.5)])
print(type(b).__name__, b.x.tolist(), b.y.tolist())


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([i, i * 2])

    def __len__(self):
        return self.n


chain = ChainDataset([Stream(2), Stream(3)])
print(len(chain), [b.tolist() for b in DataLoader(chain, batch_size=3)])
both = Stream(1) + Stream(2)
print(type(both).__name__, [t.tolist() for t in both])
ds = TensorDataset(torch.arange(4), torch.arange(4) * 10)
for xb, yb in DataLoader(ds, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(7)):
    print(xb.tolist(), yb.tolist())
seq = torch.tensor([3., 1., 2., 5.])
order = torch.argsort(seq)
print(torch.searchsorted(seq, torch.tensor([0.5, 2.5, 9.0]), sorter=order).tolist())
print(torch.searchsorted(seq, torch.tensor([2.0, 3.0]), sorter=order, side='right').tolist())
rows = torch.tensor([[3., 1., 2.], [0., 5., 4.]])
print(torch.searchsorted(rows, torch.tensor([[2.5, 0.5], [4.5, 9.]]), sorter=rows.argsort(dim=1)).tolist())


def attempt(fn):
    try:
        print('ok', fn())
    except Exception as e:
        print(type(e).__name__, e)


attempt(lambda: torch.searchsorted(seq, torch.tensor([1.0]), sorter=torch.tensor([1, 2])))
attempt(lambda: torch.searchsorted(seq, torch.tensor([1.0]), sorter=order.int()))
attempt(lambda: torch.searchsorted(seq, torch.tensor([1.0]), sorter=torch.tensor([1, 2, 0, 7])).tolist())
