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
    print(torch.tensor([1.0]).masked_fill(torch.tensor([1]), 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([2**62]) * 4)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([-2**63]) // -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([-2**63]) % -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.exp(torch.tensor([1000.0])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.log(torch.tensor([-1.0, 0.0])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([float('nan')]) == torch.tensor([float('nan')]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.sqrt(torch.tensor([4])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1, 2]) & torch.tensor([3, 1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1.5]) | 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(~torch.tensor([1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1, 2]) << 70)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.relu(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.exp('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.add(1, 2))
except Exception as e:
    print(type(e).__name__, e)
