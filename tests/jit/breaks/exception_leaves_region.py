# An exception raised in a hot function after tensor work: the pending work
# runs as the exception leaves the region, and the caller handles it.
# The third call is a function region: its y = x * 2 + 1 is pending when the
# ValueError leaves it, so it runs as one graph with the exception as break.
# expect graphs: 1
# expect breaks: exception@14
# expect output: caught: input too long: 3
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
