# Boolean-mask indexing keeps only the positive entries: the result's size
# depends on the data, so the mask must be computed before the op runs.
# Graph 1 computes y and the mask up to the masked index, which needs the
# mask's count; nonzero of the mask then runs at once (its inputs are ready),
# and graph 2 is the rest. One break.
# expect graphs: 2
# expect breaks: data_dependent_shape@14
import torch


@torch.compile
def positive_mean(x):
    y = x * 2 - 1
    kept = y[y > 0]
    return kept.mean()


print(positive_mean(torch.tensor([0.1, 0.7, 0.9, 0.3, 2.0])))
