# torch.compile(fullgraph=True) turns the first graph break into an error
# that names the break; the script falls back to the plain function.
# expect graphs: 0
# expect breaks: none
import sys

import torch


def step(x):
    y = x * 3
    if y.sum().item() > 0:
        return y
    return -y


strict = torch.compile(step, fullgraph=True)
x = torch.tensor([1.0, 2.0])
try:
    out = strict(x)
except RuntimeError as e:
    print("fullgraph refused:", e, file=sys.stderr)
    out = step(x)
print(out)
