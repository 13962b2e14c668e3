import torch
a = torch.tensor([[1.0, -2.0], [3.0, 0.5]])
b = torch.tensor([2.0, 4.0])
i = torch.tensor([7, -3])
print(a + b, a - 1, 2 * a, a / b, a // b, a % b, a ** 2, 2 ** a, -a, abs(a))
print(torch.add(a, b, alpha=2), torch.sub(a, b), torch.div(a, b, rounding_mode='floor'), torch.div(i, 2, rounding_mode='trunc'))
print(i // 2, i % 2, i / 2, i * 1.5, i ** 2, torch.remainder(i, -2), torch.floor_divide(i, 2))
for f in [torch.exp, torch.log, torch.log1p, torch.sqrt, torch.rsqrt, torch.sin, torch.cos, torch.tanh,
          torch.sigmoid, torch.erf, torch.relu, torch.abs, torch.neg, torch.sign]:
    print(f(a))
print(torch.maximum(a, b), torch.minimum(a, b), torch.clamp(a, -1, 1), torch.clamp(a, min=0), a.clamp(max=0.5))
print(torch.where(a > 0, a, b), torch.where(a > 0, a, 0.0), a.masked_fill(a < 0, 9), torch.logical_not(a))
print(a == b, a != 1, a < b, a >= 0.5, (a > 0) & (a < 2) if False else 0, torch.pow(a, 0.5), torch.pow(2, b))
print(torch.nn.functional.gelu(a), torch.nn.functional.silu(a), i // 0 if False else 0)
