# print() of a tensor inside a function that turns hot (called more than
# twice): from the third call on the print reads a pending tensor.
# expect graphs: 0
# expect breaks: none
import torch


def normalize(v):
    n = v / v.norm()
    print("normalized:", n)
    return n * 2


out = torch.tensor([1.0, 2.0, 2.0])
for i in range(4):
    out = normalize(out)
print("done")
