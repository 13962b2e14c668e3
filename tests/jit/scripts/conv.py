# A convolution forward and backward on integer-valued data, so every sum is
# exact and both kernels (oneDNN, KILN_CONV=im2col) print the same numbers.
import torch
import torch.nn.functional as F

x = (torch.arange(4 * 8 * 12 * 12).reshape(4, 8, 12, 12) % 5 - 2).float().requires_grad_()
w = (torch.arange(16 * 8 * 3 * 3).reshape(16, 8, 3, 3) % 3 - 1).float().requires_grad_()
b = (torch.arange(16) % 7 - 3).float().requires_grad_()
y = F.conv2d(x, w, b, stride=2, padding=1)
(y * y).sum().backward()
print(y.sum().item(), y[1, 2, 3].tolist())
print(x.grad.sum().item(), x.grad[0, 1, 2, :5].tolist(), w.grad[3, 4].tolist(), b.grad[:4].tolist())
