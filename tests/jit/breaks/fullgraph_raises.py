# torch.compile(fullgraph=True) turns the first graph break into an error
# that names the break; the script falls back to the plain function.
# The .item() raises instead of breaking (after running graph 1, y * 3 and
# its sum), so the report has no break; the fallback runs outside regions.
# expect graphs: 1
# expect breaks: none
# expect output: fullgraph refused: graph break in a torch.compile(fullgraph=True) region: `.item()`
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
