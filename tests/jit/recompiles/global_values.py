# A compiled function reads a global tensor and a global float. Rebinding the
# global float is a new graph input value (no recompile) and the result uses
# it; rebinding the global tensor to a new tensor of the same shape hits the
# existing graph with the new values; rebinding it to one of another rank
# recompiles (its shape is guarded) and the result broadcasts as it should.
#
# expect in compiled:*scaled_shift graphs: 2
# expect in compiled:*scaled_shift runs: 5
# expect recompiles: 1
# expect recompiles: 1 guard~"`add`" guard~"number of dims" expected=1 actual=2 made_dynamic=false
# expect breaks: 0
import torch

SHIFT = torch.tensor([1.0, 2.0, 3.0])
SCALE = 2.0


@torch.compile
def scaled_shift(x):
    return x * SCALE + SHIFT


x = torch.ones(3)
print(scaled_shift(x))
SCALE = -0.5
print(scaled_shift(x))
SHIFT = torch.tensor([10.0, 20.0, 30.0])
print(scaled_shift(x))
SHIFT = torch.tensor([[1.0], [100.0]])
print(scaled_shift(x))
SCALE = 3.0
print(scaled_shift(x))
