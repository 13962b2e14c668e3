# With KILN_CACHE_LIMIT=3 and dynamic=False, five sizes need five graphs:
# after three the place stops compiling, warns about the cache limit and
# runs uncompiled (the fifth call falls in the region's backoff and runs in
# the interpreter without capture); the results are still right.
#
# env: KILN_CACHE_LIMIT=3
# expect in compiled:cube graphs: 3
# expect in compiled:cube warnings: 1 ~"cache limit of 3"
# expect warnings: 1
# expect in compiled:cube eager_runs: 1
# expect eager_runs: >0
# expect recompiles: 2
# expect every recompile: made_dynamic=false
# expect breaks: 0
import torch


@torch.compile(dynamic=False)
def cube(x):
    return x * x * x - x


print(cube(torch.arange(1.0, 2.0)))
print(cube(torch.arange(1.0, 3.0)))
print(cube(torch.arange(1.0, 4.0)))
print(cube(torch.arange(1.0, 5.0)))
print(cube(torch.arange(1.0, 6.0)))
