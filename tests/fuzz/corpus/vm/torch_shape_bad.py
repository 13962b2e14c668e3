import torch
try:
    print(torch.arange(6).view(4, -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).view(-1, -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).reshape(7))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).view(2, 3).t().view(6))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).transpose(0, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).permute(1, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).unsqueeze(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).squeeze(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).expand(2, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).narrow(0, 5, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).select(0, 6))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).split(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).chunk(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.cat([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.cat([torch.ones(2), torch.ones(2, 2)]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.stack([torch.ones(2), torch.ones(3)]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).as_strided((100,), (100,)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).as_strided((2,), (-1,)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.tril(torch.ones(3)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).view(2**40, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).reshape(-2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).flatten(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2, 2).t().t().t())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.arange(6).expand(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(0, 2).view(0, -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2).size(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.cat([torch.ones(1), 1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.ones(2, 2).split([1, 5]))
except Exception as e:
    print(type(e).__name__, e)
