import torch
try:
    print(torch.tensor([1, 2]) // 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1, 2]) % 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1.0, 2.0]) / 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1, 2]) + torch.tensor([1, 2, 3]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1]) + 'a')
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1]) + [1, 2])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1]) + None)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.add(torch.tensor([1]), 1, alpha=0.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.div(torch.tensor([1]), 2, rounding_mode='bogus'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([True]) - torch.tensor([True]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-torch.tensor([True]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([2]) ** -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.clamp(torch.tensor([1.0])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.where(torch.tensor([1.0]), 1, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    pri