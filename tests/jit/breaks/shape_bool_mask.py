# Boolean-mask indexing keeps only the positive entries: the result's size
# depends on the data, so the mask must be computed before the op runs.
# expect graphs: 0
# expect breaks: none
import torch


@torch.compile
def positive_mean(x):
    y = x * 2 - 1
    kept = y[y > 0]
    return kept.mean()


print(positive_mean(torch.tensor([0.1, 0.7, 0.9, 0.3, 2.0])))
