# torch.compile(dynamic=True): every dim is dynamic from the first call, so
# new sizes (in either dim) never recompile.
#
# expect regions: 1
# expect in compiled:normalize graphs: 1
# expect in compiled:normalize runs: 4
# expect recompiles: 0
# expect eager_runs: 0
# expect breaks: 0
import torch


@torch.compile(dynamic=True)
def normalize(x):
    return (x - x.mean(dim=0)) / (x.std(dim=0) + 1e-5)


print(normalize(torch.arange(12.0).reshape(4, 3)))
print(normalize(torch.arange(30.0).reshape(6, 5) ** 1.5))
print(normalize(torch.arange(6.0).reshape(3, 2) * -1.0))
print(normalize(torch.arange(70.0).reshape(7, 10) % 4.0))
