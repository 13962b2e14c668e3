# A branch on a Python int inside a compiled function (`if step % 10 == 0`)
# takes a different path through the code: the ops differ, so the two paths
# are two graphs, each hit again when its path repeats. Never a wrong
# answer, and never more graphs than paths.
#
# expect in compiled:update graphs: 2
# expect in compiled:update runs: 6
# expect recompiles: 1
# expect recompiles: 1 guard~"number of ops" expected=3 actual=2
# expect eager_runs: 0
# expect breaks: 0
import torch


@torch.compile
def update(w, g, step):
    w = w - 0.1 * g
    if step % 10 == 0:
        w = w * 0.5
    return w


w = torch.tensor([4.0, -8.0])
g = torch.tensor([1.0, 2.0])
w = update(w, g, 0)
print(w)
w = update(w, g, 1)
print(w)
w = update(w, g, 2)
print(w)
w = update(w, g, 10)
print(w)
w = update(w, g, 11)
print(w)
w = update(w, g, 20)
print(w)
