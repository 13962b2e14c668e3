# A while loop whose condition is a tensor: every test of the condition needs
# the value computed by the loop body.
# The norm starts at 13 and halves: 4 iterations and 5 tests of the condition.
# Graph 1 runs up to the first test; graph 2 (the body and the next test) runs 4x.
# expect graphs: 2
# expect breaks: data_dependent_branch@14 x5
# expect region: compiled shrink
import torch


@torch.compile
def shrink(v):
    steps = 0
    while v.norm() > 1.0:
        v = v * 0.5
        steps += 1
    return v, steps


v, steps = shrink(torch.tensor([3.0, 4.0, 12.0]))
print(v, steps)
