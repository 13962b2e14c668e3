# A compiled function called with a new size of dim 0: the first recompile
# makes that dim dynamic (automatic dynamic shapes), and the sizes after it
# hit the same graph, so four sizes cost one recompile, not three.
#
# expect regions: 1
# expect in compiled:scale_rows graphs: 2
# expect in compiled:scale_rows runs: 5
# expect recompiles: 1
# expect recompiles: 1 guard~"size of dim 0" expected=4 actual=6 made_dynamic=true
# expect every recompile: fix~"mark_dynamic"
# expect eager_runs: 0
# expect breaks: 0
import torch


def scale_rows(x, w):
    return (x * w).sum(dim=1) + 1.0


compiled = torch.compile(scale_rows)
w = torch.tensor([1.0, -2.0, 0.5])
print(compiled(torch.arange(12.0).reshape(4, 3), w))
print(compiled(torch.arange(18.0).reshape(6, 3), w))
print(compiled(torch.arange(27.0).reshape(9, 3), w))
print(compiled(torch.arange(6.0).reshape(2, 3), w))
print(compiled(torch.arange(12.0).reshape(4, 3), w))
