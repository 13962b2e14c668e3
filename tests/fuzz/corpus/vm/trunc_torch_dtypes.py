import torch
for dt in [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.float, torch.double, torch.long]:
    t = torch.tensor([1, 0, 2]).to(dt)
    print(dt, t, t.dtype, t + 1, t * 1.5, t.float().dtype, t.sum().dtype)
print(torch.tensor([1]) + torch.tensor([1.0], dtype=torch.float64), torch.tensor([True]) + 1, torch.tensor([1], dtype=torch.int32) + 2**40)
print(torch.finfo(torch.float32).eps, torch.iinfo(torch.int64).max, torch.get_default_dtype())
for f in [lambda: torch.tensor([1]).to('bogus'), lambda: torch.tensor([1]).to(5), lambda: torch.finfo(tor