import torch
try:
    print(torch.tensor([[1, 2], [3]]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor('abc'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1, 'a']))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.zeros(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(0, 10, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(10, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.linspace(0, 1, -2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.eye(-3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.full((2,), 'x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.zeros(2, dtype=5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.zeros(2, bogus=1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1], dtype=torch.int64, device='cuda'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.zeros((2, 3), 4))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.zeros(2.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.empty(2, 3, 4, 5, 6, 7, 8, 9, 10).shape)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([[[[[[[[[[1]]]]]]]]]]).shape)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(0, float('inf')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor(float('inf')).long())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor(2**63 - 1) + 1)
except Exception as e:
    print(type(e).__name__, e)
