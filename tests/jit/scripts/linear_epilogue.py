# Linear layers whose bias, residual and relu run in the product's output
# pass (jit/matmul_epilogue.h). Integer-valued data keeps every sum exact, so
# the fused and the separate paths must print the same numbers.
import torch
import torch.nn.functional as F

x = (torch.arange(64 * 96).reshape(64, 96) % 7 - 3).float()
w1 = (torch.arange(128 * 96).reshape(128, 96) % 5 - 2).float()
b1 = (torch.arange(128) % 9 - 4).float()
w2 = (torch.arange(96 * 128).reshape(96, 128) % 3 - 1).float()
b2 = (torch.arange(96) % 4 - 2).float()

total = 0.0
for step in range(6):
    h = F.relu(F.linear(x + step, w1, b1))       # mm + bias + relu
    y = h @ w2.t() + b2 + x                      # mm + bias + residual
    total += y.sum().item()
print(total, h.min().item(), h.max().item(), y[3, :4].tolist())
