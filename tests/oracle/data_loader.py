# torch.utils.data and torch.Generator: PyTorch's draws in PyTorch's order, so
# shuffled batches, splits and the numbers drawn after them match.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, RandomSampler,
                              SequentialSampler, Subset, TensorDataset, WeightedRandomSampler, random_split)

torch.manual_seed(0)
print(torch.randperm(10))
print(torch.randperm(6, dtype=torch.float32))
g = torch.Generator().manual_seed(42)
print(torch.randperm(8, generator=g))
print(torch.rand(3, generator=g))
print(torch.randn(2, 2, generator=g))
print(torch.randint(0, 10, (4,), generator=g))
print(torch.empty(3).uniform_(-1, 1, generator=g))
print(torch.empty(3).normal_(generator=g))
print(g.initial_seed())
print(torch.rand(2))
state = g.get_state()
a = torch.randint(0, 100, (5,), generator=g)
g.set_state(state)
print(torch.equal(a, torch.randint(0, 100, (5,), generator=g)))
st = torch.get_rng_state()
x = torch.randn(3)
torch.set_rng_state(st)
print(torch.equal(x, torch.randn(3)))
print(torch.empty((), dtype=torch.int64).random_().item())
print(torch.zeros(4).random_(), torch.zeros(3, dtype=torch.int32).random_(0, 10))
print(torch.normal(0.0, 1.0, size=(3,)))
print(torch.normal(torch.zeros(3), torch.ones(3) * 2))
print(torch.normal(torch.arange(3.0), 0.5))
print(torch.normal(1.0, torch.ones(2)))
print(torch.multinomial(torch.tensor([0.1, 0.5, 0.4]), 4, True, generator=torch.Generator().manual_seed(7)))


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return float(i), i * i


x = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
print(len(ds), ds[3])
dl = DataLoader(ds, batch_size=4, shuffle=True)
print(len(dl))
for epoch in range(2):
    for xb, yb in dl:
        print(epoch, xb.tolist(), yb.tolist())
for xb, yb in DataLoader(ds, batch_size=3, drop_last=True):
    print(yb)
train, val = random_split(ds, [7, 3])
print(len(train), len(val), train.indices, val.indices)
train, val = random_split(ds, [0.5, 0.5], generator=torch.Generator().manual_seed(1))
print(train.indices, val.indices)
print([b[1].tolist() for b in DataLoader(train, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(3))])
print(torch.rand(1))
for b in DataLoader(Squares(5), batch_size=2):
    print(b)
print(next(iter(DataLoader([{"a": torch.ones(2), "b": 1}, {"a": torch.zeros(2), "b": 2}], batch_size=2))))
print([b for b in DataLoader(Squares(3), batch_size=None)])
cd = ConcatDataset([ds, Subset(ds, [0, 1])])
print(len(cd), cd[11])
print(list(BatchSampler(SequentialSampler(range(7)), 3, False)), list(BatchSampler(range(7), 3, True)))
print(list(RandomSampler(range(5), replacement=True, num_samples=6)))
print(list(WeightedRandomSampler([0.1, 0.9, 0.5], 5)))

# A small model trained on shuffled mini-batches (the loop the JIT captures).
torch.manual_seed(1)
xs = torch.randn(64, 4)
ys = (xs.sum(dim=1) > 0).long()
loader = DataLoader(TensorDataset(xs, ys), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.1), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, round(total, 4))
print(torch.rand(2))
