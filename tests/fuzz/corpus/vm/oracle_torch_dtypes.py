# dtype promotion (PyTorch's rules: categories, Python scalars don't upcast), conversions.
import torch
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
b = torch.tensor([True, False, True])
i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
print((i + f).dtype, (i * 2).dtype, (i * 2.5).dtype, (i / 2).dtype, (i // 2).dtype, (f + d).dtype, (b + b).dtype)
print((b + i).dtype, (b * 1.5).dtype, (i + True).dtype, (i32 + i).dtype, (i32 * 1.5).dtype, (f * d).dtype)
print((i / 2).tolist(), (i * 2.5).tolist(), (i // 2).tolist(), (b + b).tolist(), (b + i).tolist())
print((i > 1).dtype, (f == f).dtype, torch.tensor(3) * 0.5, (torch.tensor(2) ** 2).dtype, (i ** 0.5).dtype)
print(f.sum().dtype, i.sum().dtype, b.sum().dtype, b.sum().item(), i.float().mean().dtype)
print(i.to(torch.float32), f.to(torch.int64), f.long(), i.double(), i.float().dtype, f.to(torch.float64).dtype)
print(torch.tensor([-1.7, 1.7]).long(), torch.tensor([0.0, 2.0]).bool(), b.float(), b.long())
print(f.to(dtype=torch.float64).dtype, f.to(torch.int64).dtype)
print(torch.zeros(2, dtype=torch.float64) + torch.ones(2), (d + 1).dtype, (d * f).dtype)
print((torch.tensor(1.5, dtype=torch.float64) * f).dtype, (torch.tensor(2) * f).dtype, (torch.tensor(2.0) + i).dtype)
x = torch.tensor([1.0, 2.0])
x += 1
print(x.dtype, x)
try:
    y = torch.tensor([1, 2])
    y += 1.5
except RuntimeError as err:
    print(type(err).__name__)
print(torch.where(b, i, f).dtype, torch.maximum(i, f).dtype, torch.cat([f, f]).dtype)
print(torch.mean(f).item(), f.mean().dtype, torch.arange(4).float().mean().item(), torch.tensor([1, 2]).float().var().item())
print(int(torch.tensor(3.7)), float(torch.tensor(2)), bool(torch.tensor(0.0)), int(torch.tensor([9])))
