# The library pieces the pytorch/examples vision scripts lean on besides the
# tensor ops: submodules they import by path, sequence indices, persistent
# DataLoader workers, random's state, DistributedSampler and DataParallel.
import random

import torch
import torch.backends.cudnn as cudnn
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.init as init
import torch.nn.parallel
import torch.utils.data.distributed
from torch.nn.parameter import Parameter
from torch.optim.optimizer import Optimizer
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.dataloader import default_collate
from torch.utils.data.dataset import Dataset
from torch.utils.data.sampler import RandomSampler

cudnn.benchmark = True
print(cudnn.benchmark, torch.backends.cudnn.benchmark, cudnn.deterministic, cudnn.enabled)
with cudnn.flags(enabled=False, deterministic=True):
    print(cudnn.enabled, cudnn.deterministic)
print(cudnn.enabled, cudnn.deterministic)
print(init.calculate_gain('relu') == nn.init.calculate_gain('relu'), init.orthogonal_ is not None)
print(Parameter is nn.Parameter, Optimizer is torch.optim.Optimizer, Dataset is torch.utils.data.Dataset,
      RandomSampler is torch.utils.data.RandomSampler, default_collate([1, 2]).tolist())

# Sequences as indices: a range, an empty list and floats all index as int64.
x = torch.arange(12.0).view(3, 4)
print(x[range(3), [0, 1, 2]].tolist(), x[[]].shape, x[[2.0, 0.0]].tolist(), x[:, range(1, 4, 2)].tolist())
y = x.clone()
y[range(3), torch.tensor([3, 2, 1])] = -1.0
print(y.tolist())

# persistent_workers: one iterator for every epoch, so no new base seed per epoch.
torch.manual_seed(0)
ds = TensorDataset(torch.arange(10.0).view(10, 1), torch.arange(10))
dl = DataLoader(ds, batch_size=4, shuffle=True, num_workers=1, persistent_workers=True)
for epoch in range(3):
    print(epoch, [b[1].tolist() for b in dl])
print(round(torch.rand(1).item(), 4))
try:
    DataLoader(ds, persistent_workers=True)
except ValueError as e:
    print('ValueError:', e)

# random's state round trip, as a spawned process or a test harness uses it.
random.seed(3)
state = random.getstate()
a = [random.random() for _ in range(3)]
random.setstate(state)
print(a == [random.random() for _ in range(3)], state[0], len(state[1]), state[1][-1], state[2])
random.gauss(0, 1)
state = random.getstate()
g1 = random.gauss(0, 1)
random.setstate(state)
print(g1 == random.gauss(0, 1))

# DistributedSampler with an explicit world: strided, padded shares.
for shuffle, drop_last in ((False, False), (True, False), (True, True)):
    shares = []
    for rank in range(3):
        s = torch.utils.data.distributed.DistributedSampler(range(10), num_replicas=3, rank=rank,
                                                            shuffle=shuffle, drop_last=drop_last, seed=1)
        s.set_epoch(2)
        shares.append(list(s))
    print(shuffle, drop_last, len(s), shares)
try:
    torch.utils.data.distributed.DistributedSampler(range(4), num_replicas=2, rank=2)
except ValueError as e:
    print('ValueError:', e)
print(dist.is_available(), dist.is_initialized())
try:
    dist.get_rank()
except ValueError as e:
    print('ValueError:', e)

# One device: DataParallel and data_parallel just run the module.
torch.manual_seed(1)
lin = nn.Linear(3, 2)
inp = torch.randn(4, 3)
dp = nn.DataParallel(lin)
print(type(dp).__name__, dp.module is lin, torch.equal(dp(inp), lin(inp)))
print(lin.share_memory() is lin, lin.weight.is_shared() in (True, False))

# A worker Process runs to its end; under the default 'fork' it starts from a
# copy of the parent's generator, and the parent's own goes on untouched.
def work(tag, n):
    print(tag, [round(v, 4) for v in torch.rand(n).tolist()])


torch.manual_seed(2)
p = mp.Process(target=work, args=('worker', 3))
p.start()
p.join()
print(p.exitcode, mp.get_start_method(), round(torch.rand(1).item(), 4))
