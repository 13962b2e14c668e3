# nn.ConvTranspose1d/2d and F.conv_transpose1d/2d (strides, padding, output_padding,
# groups, dilation, gradients), and a small generator of transposed convolutions.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
print(m)
x = torch.randn(2, 4, 5, 5, requires_grad=True)
y = m(x)
print(y.shape)
print(y[0, 0, :3, :3].detach())
y.pow(2).sum().backward()
print(x.grad[0, 0, 0])
print(m.weight.grad.norm())
print([round(v, 3) for v in m.bias.grad.tolist()])
m1 = nn.ConvTranspose1d(3, 2, 4, stride=3, padding=2, dilation=2, bias=False)
print(m1)
print(m1(torch.randn(1, 3, 7)))
print(F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2))
g = nn.Sequential(nn.ConvTranspose2d(8, 4, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(4, 1, 4, 2, 1), nn.Tanh())
z = torch.randn(3, 8, 4, 4)
print(g(z).shape)
print(g(z)[1, 0, 5, :4].detach())
