# Graph breaks inside a try block of a compiled function, one of them raising
# ZeroDivisionError that the function handles.
# expect graphs: 0
# expect breaks: none
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
