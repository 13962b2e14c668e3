# An exception leaving a torch.compile'd function with work pending: the work
# runs as the exception passes, and the caller handles it.
# Call 1: one graph. Call 2 (1-d input) records sub and relu, then raises: a
# second graph (dims differ: a recompile) run as the exception leaves.
# The break is reported at the raise.
# expect graphs: 2
# expect breaks: exception@22
# expect region: compiled validated
import torch


@torch.compile
def validated(x):
    y = torch.relu(x - 1)
    if x.dim() != 2:
        raise ValueError("expected a matrix, got " + str(x.dim()) + " dims")
    return y.sum()


for t in [torch.ones(2, 2), torch.ones(3)]:
    try:
        print(validated(t))
    except ValueError as e:
        print("caught:", e)
