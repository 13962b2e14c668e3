# torch.compile(dynamic=False): no automatic dynamic shapes, so every new
# size of the input is a recompile that keeps the dim static; a size seen
# before hits its graph again.
#
# expect regions: 1
# expect in compiled:affine graphs: 4
# expect in compiled:affine runs: 5
# expect recompiles: 3
# expect every recompile: guard~"size of dim 0" made_dynamic=false
# expect recompiles: 1 expected=2 actual=3
# expect recompiles: 1 expected=3 actual=5
# expect recompiles: 1 expected=5 actual=8
# expect eager_runs: 0
# expect breaks: 0
import torch


@torch.compile(dynamic=False)
def affine(x):
    return x * 3.0 - 1.0


print(affine(torch.arange(2.0)))
print(affine(torch.arange(3.0)))
print(affine(torch.arange(5.0)))
print(affine(torch.arange(8.0)))
print(affine(torch.arange(3.0)))
