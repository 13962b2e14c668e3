# Graph breaks inside a try block of a compiled function, one of them raising
# ZeroDivisionError that the function handles.
# Three graphs split by the two .item() reads, in both calls (in the second,
# num / 0.0 raises after the reads; the handler's r = 0.0, like 1.5 before,
# is a graph input of the same third graph).
# expect graphs: 3
# expect breaks: item@15 x2, item@16 x2
import torch


@torch.compile
def safe_ratio(a, b):
    s = a.sum()
    try:
        num = s.item()
        r = num / b.sum().item()
    except ZeroDivisionError:
        r = 0.0
    return a * r


print(safe_ratio(torch.ones(3), torch.tensor([1.0, 1.0])))
print(safe_ratio(torch.ones(3), torch.tensor([1.0, -1.0])))
