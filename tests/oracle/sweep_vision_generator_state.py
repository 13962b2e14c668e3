# Generator.get_state/set_state replay a seeded stream, also in code the JIT
# captures (after a hot loop), where a deferred copy of the state would be
# taken after the draw that follows it.
import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.arange(6), torch.arange(6) * 10)
for i, (a, b) in enumerate(DataLoader(ds, batch_size=2)):
    pass
g = torch.Generator()
g.manual_seed(123)
state = g.get_state(); a = torch.rand(3, generator=g); g.set_state(state); print(torch.equal(a, torch.rand(3, generator=g)))
for step in range(4):
    st = g.get_state()
    x = torch.randperm(5, generator=g)
    g.set_state(st)
    y = torch.randperm(5, generator=g)
    print(step, x.tolist() == y.tolist(), torch.rand(1, generator=g).item() < 1)
g2 = torch.Generator()
g2.set_state(g.get_state())
print(torch.randint(0, 100, (4,), generator=g2).tolist() == torch.randint(0, 100, (4,), generator=g).tolist())
