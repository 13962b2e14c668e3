# max_pool2d's windows on every kind of edge: padding, ceil_mode, strides
# smaller and larger than the kernel, rectangular kernels, NaN (which wins),
# -inf and ties (the first index), checked as values and indices.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 7, 9)
x[0, 0, 1, 2] = float('nan')
x[0, 1, 3:5, 3:5] = float('-inf')
x[1, 0, 2, :] = 0.5
x[1, 1] = x[1, 1].round()
cases = [dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1), dict(kernel_size=(2, 3), stride=(1, 2)),
         dict(kernel_size=3, stride=2, ceil_mode=True), dict(kernel_size=2, stride=3),
         dict(kernel_size=(3, 2), stride=2, padding=(1, 0), ceil_mode=True), dict(kernel_size=1, stride=2),
         dict(kernel_size=4, stride=1, padding=2), dict(kernel_size=2, dilation=2)]
for kw in cases:
    y, idx = F.max_pool2d(x, return_indices=True, **kw)
    print(kw, list(y.shape), round(y.double().nan_to_num(99.0, 0.0, -99.0).sum().item(), 4), idx.sum().item(),
          idx[0, 0].flatten()[:6].tolist(), torch.isnan(y).sum().item())
xd = x.double()
y, idx = F.max_pool2d(xd, 3, 2, 1, return_indices=True)
print(y.dtype, round(y.nan_to_num(99.0).sum().item(), 6), idx.sum().item())
g = torch.randn(1, 1, 6, 6, requires_grad=True)
F.max_pool2d(g, 3, 1, 1).sum().backward()
print(g.grad.flatten().tolist())
