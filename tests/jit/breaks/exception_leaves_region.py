# An exception raised in a hot function after tensor work: the pending work
# runs as the exception leaves the region, and the caller handles it.
# expect graphs: 0
# expect breaks: none
import torch


def checked_scale(x, limit):
    y = x * 2 + 1
    if x.shape[0] > limit:
        raise ValueError("input too long: " + str(x.shape[0]))
    return y


results = []
try:
    results.append(checked_scale(torch.ones(2), 2))
    results.append(checked_scale(torch.ones(2), 2))
    results.append(checked_scale(torch.ones(3), 2))
except ValueError as e:
    print("caught:", e)
print(len(results), results[-1])
