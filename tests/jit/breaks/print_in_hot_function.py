# print() of a tensor inside a function that turns hot (called more than
# twice): from the third call on the print reads a pending tensor. The loop
# is a region from i=2 (normalize's third call inlined): i=2 and i=3 are one
# graph up to the print and one after it (2 graphs, 2 runs each).
# expect graphs: 2
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
