import torch
try:
    print(torch.ones(3)[3])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[-4])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[0, 0])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)['a'])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[1.5])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[torch.tensor([5])])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[torch.tensor([True, False])])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[torch.tensor([0.5])])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[::-1])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[::0])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2, 2)[..., ..., 0])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3).gather(0, torch.tensor([3])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3).index_select(0, torch.tensor([-1])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.zeros(3).scatter_add(0, torch.tensor([9]), torch.ones(1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3).item())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3).index_add(0, torch.tensor([0, 1]), torch.ones(3)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[[0, 1, 5]])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[None, None, None, None].shape)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(3)[{}])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2, 2)[[[0]], [[0, 1], [1, 0]]])
except Exception as e:
    print(type(e).__name__, e)
