import torch
try:
    print(torch.zeros(2, sizee=3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.sum(torch.ones(2), dim=0, keepdims=True))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).sum(axis=0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.add(torch.ones(2), other=torch.ones(2), alph=2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.cat([torch.ones(1)], axis=0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.softmax(torch.ones(2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.softmax(torch.ones(2), dim='x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).view(size=2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1], requires_grad='yes'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.randn(2, generator=None))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).max(dim=None))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).transpose(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).reshape())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.linspace(0, 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.full((2,)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).to())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).clamp(min='a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).sum(0, 0, 0, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.nn.functional.softmax(torch.ones(2), 0, 0, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).split(1, 0, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.where(torch.ones(2) > 0))
except Exception as e:
    print(type(e).__name__, e)
