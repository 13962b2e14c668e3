# print() of a tensor inside a function that turns hot (called more than
# twice): from the third call on the print reads a pending tensor.
# normalize's third call (i=2) is a function region and i=3 runs in the loop's
# region: each has one graph up to the print and one after it.
# expect graphs: 4
# expect breaks: print@12 x2
import torch


def normalize(v):
    n = v / v.norm()
    print("normalized:", n)
    return n * 2


out = torch.tensor([1.0, 2.0, 2.0])
for i in range(4):
    out = normalize(out)
print("done")
