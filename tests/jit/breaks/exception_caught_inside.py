# An exception raised and caught inside the compiled function never leaves
# the region: Python handles it normally and the graph carries on.
# Both calls are one graph (y + 1, y * k; k is a graph input): no break.
# expect graphs: 1
# expect breaks: none
# expect region: compiled scaled
import torch


def parse_scale(s):
    try:
        return float(s)
    except ValueError:
        return 1.0


@torch.compile
def scaled(x, s):
    y = x + 1
    try:
        if s == "bad":
            raise KeyError(s)
        k = parse_scale(s)
    except KeyError:
        k = -1.0
    return y * k


print(scaled(torch.ones(2), "2.5"))
print(scaled(torch.ones(2), "bad"))
