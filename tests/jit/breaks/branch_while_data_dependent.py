# A while loop whose condition is a tensor: every test of the condition needs
# the value computed by the loop body.
# expect graphs: 0
# expect breaks: none
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
