# The 3-d spatial family: F.conv3d / nn.Conv3d, F.conv_transpose3d / nn.ConvTranspose3d,
# max/avg/adaptive pools in 3-d, BatchNorm3d, InstanceNorm3d, trilinear and nearest
# interpolation of 5-d inputs and nn.Upsample: values, input and weight gradients,
# grad_fn names, module reprs and PyTorch's errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def r(t, n=8):
    return [round(v, 4) for v in t.detach().reshape(-1).tolist()[:n]]


def total(t):
    return round(t.detach().sum().item(), 4)


def grads(y, *ts):
    # A gradient that varies by position, built without the size as a value (one graph for all shapes).
    y.backward(y.detach().cos())
    return [total(t.grad.abs()) for t in ts]


def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)


def grad_fn(t):
    return type(t.grad_fn).__name__


# ---- convolution ----
x = torch.randn(2, 4, 5, 6, 5, requires_grad=True)
w = torch.randn(6, 2, 3, 2, 3, requires_grad=True)
b = torch.randn(6, requires_grad=True)
for kw in [dict(), dict(stride=2), dict(padding=(1, 0, 2), dilation=(1, 2, 1)), dict(padding='same', dilation=(1, 2, 1)),
           dict(padding='valid', stride=(1, 2, 1))]:
    x.grad = w.grad = b.grad = None
    y = F.conv3d(x, w, b, groups=2, **kw)
    print(tuple(y.shape), grad_fn(y), total(y), r(y, 4), grads(y, x, w, b))
y = F.conv3d(x[0].detach(), w.detach()[:, :, :1], None, 1, 0, 1, 2)
print('unbatched', tuple(y.shape), total(y))

for mode in ['zeros', 'reflect', 'replicate', 'circular']:
    m = nn.Conv3d(3, 4, (2, 3, 2), stride=(1, 2, 1), padding=1, padding_mode=mode)
    xi = torch.randn(1, 3, 4, 5, 4, requires_grad=True)
    y = m(xi)
    print(mode, tuple(y.shape), total(y), grads(y, xi, m.weight, m.bias))
print(nn.Conv3d(2, 4, 3))
print(nn.Conv3d(2, 4, (3, 1, 2), stride=1, padding='same', dilation=2, groups=2, bias=False))
print(nn.Conv3d(2, 4, 3, padding=1, padding_mode='reflect'))

# ---- transposed convolution ----
xt = torch.randn(1, 4, 3, 4, 3, requires_grad=True)
wt = torch.randn(4, 3, 3, 2, 3, requires_grad=True)
bt = torch.randn(6, requires_grad=True)
for kw in [dict(), dict(stride=2, padding=1, output_padding=1), dict(stride=(2, 1, 3), dilation=(1, 2, 1))]:
    xt.grad = wt.grad = bt.grad = None
    y = F.conv_transpose3d(xt, wt, bt, groups=2, **kw)
    print(tuple(y.shape), grad_fn(y), total(y), r(y, 4), grads(y, xt, wt, bt))
mt = nn.ConvTranspose3d(2, 3, 3, stride=2, padding=1, output_padding=1, bias=False)
print(mt)
print(nn.ConvTranspose3d(4, 2, (2, 3, 1), stride=(2, 1, 1), groups=2, dilation=2))
xi = torch.randn(2, 2, 2, 3, 2, requires_grad=True)
y = mt(xi)
print(tuple(y.shape), total(y), grads(y, xi, mt.weight))

# ---- pooling ----
xp = torch.randn(2, 3, 5, 6, 7, requires_grad=True)
for kw in [dict(kernel_size=2), dict(kernel_size=(3, 2, 3), stride=(2, 1, 2), padding=1),
           dict(kernel_size=2, stride=2, ceil_mode=True), dict(kernel_size=(2, 3, 2), dilation=(2, 1, 2), padding=(1, 0, 1))]:
    xp.grad = None
    y, idx = F.max_pool3d(xp, return_indices=True, **kw)
    print('max', tuple(y.shape), grad_fn(y), total(y), idx.reshape(-1)[:6].tolist(), grads(y, xp))
for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
           dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
           dict(kernel_size=(2, 3, 2), stride=2, ceil_mode=True), dict(kernel_size=2, divisor_override=3)]:
    xp.grad = None
    y = F.avg_pool3d(xp, **kw)
    print('avg', tuple(y.shape), grad_fn(y), total(y), r(y, 4), grads(y, xp))
for size in [2, (3, 2, 4), (1, 1, 1), (None, 3, 2)]:
    xp.grad = None
    y = F.adaptive_avg_pool3d(xp, size)
    print('aavg', tuple(y.shape), grad_fn(y), total(y), grads(y, xp))
for size in [2, (3, 2, 4)]:
    xp.grad = None
    y, idx = F.adaptive_max_pool3d(xp, size, return_indices=True)
    print('amax', tuple(y.shape), grad_fn(y), total(y), idx.reshape(-1)[:6].tolist(), grads(y, xp))
y = F.max_pool3d(xp[0].detach(), 2)
print('unbatched', tuple(y.shape), total(y), total(F.avg_pool3d(xp[0].detach(), 2)))
print(nn.MaxPool3d(2), nn.MaxPool3d((2, 1, 2), stride=1, padding=1, dilation=2, ceil_mode=True))
print(nn.AvgPool3d(2), nn.AvgPool3d((2, 1, 2), stride=1, padding=1, ceil_mode=True, divisor_override=3))
print(nn.AdaptiveAvgPool3d((2, None, 3)), nn.AdaptiveMaxPool3d(2))
print(total(nn.MaxPool3d(3, 2, 1)(xp)), total(nn.AvgPool3d(3, 2, 1, count_include_pad=False)(xp)))
print(total(nn.AdaptiveAvgPool3d((2, None, 3))(xp)), total(nn.AdaptiveMaxPool3d(2)(xp)))
y, idx = nn.MaxPool3d(2, return_indices=True)(xp)
print(tuple(idx.shape), idx.dtype)
y, idx = F.max_pool3d_with_indices(xp, 3, 2)
print(total(y), idx.reshape(-1)[:4].tolist(), total(F.adaptive_max_pool3d_with_indices(xp, (1, 2, 3))[0]))

# ---- normalization ----
bn = nn.BatchNorm3d(3)
print(bn)
xn = torch.randn(2, 3, 3, 4, 2, requires_grad=True)
y = bn(xn)
print(grad_fn(y), total(y * y), grads(y, xn, bn.weight, bn.bias))
print(r(bn.running_mean), r(bn.running_var), bn.num_batches_tracked.item())
bn.eval()
print(total(bn(xn)), r(bn(xn), 4))
inorm = nn.InstanceNorm3d(3, affine=True)
print(inorm, nn.InstanceNorm3d(4))
xn.grad = None
y = inorm(xn)
print(grad_fn(y), total(y * y), grads(y, xn, inorm.weight, inorm.bias))
print(total(nn.InstanceNorm3d(3)(xn[0]) ** 2), tuple(nn.InstanceNorm3d(3)(xn[0]).shape))

# ---- interpolation ----
xu = torch.randn(1, 2, 2, 3, 2, requires_grad=True)
for kw in [dict(scale_factor=2, mode='trilinear'), dict(size=(3, 4, 5), mode='trilinear', align_corners=True),
           dict(size=(3, 4, 5), mode='trilinear', align_corners=False), dict(scale_factor=(1.5, 2, 1), mode='trilinear'),
           dict(scale_factor=2, mode='nearest'), dict(size=(3, 5, 3), mode='nearest'),
           dict(size=(3, 4, 3), mode='nearest-exact'), dict(size=(1, 2, 1), mode='area')]:
    xu.grad = None
    y = F.interpolate(xu, **kw)
    print(kw['mode'], tuple(y.shape), grad_fn(y), total(y), r(y, 5), grads(y, xu))
up = nn.Upsample(scale_factor=2, mode='trilinear')
print(up, nn.Upsample(size=(2, 3, 4), mode='nearest'), nn.Upsample(scale_factor=(1, 2, 2), mode='trilinear',
                                                                   align_corners=True))
print(total(up(xu)), total(nn.Upsample(size=(2, 3, 4))(xu)))

# ---- errors ----
err(lambda: F.conv3d(torch.randn(1, 2, 3, 4, 4), torch.randn(2, 3, 1, 1, 1)))
err(lambda: F.conv3d(torch.randn(4, 4), torch.randn(1, 1, 2, 2, 2)))
err(lambda: nn.Conv3d(2, 3, 2)(torch.randn(1, 3, 4, 4, 4)))
err(lambda: nn.Conv3d(2, 3, 2, padding='same', stride=2))
err(lambda: F.conv3d(torch.randn(1, 1, 2, 2, 2), torch.randn(1, 1, 3, 3, 3)))
err(lambda: F.conv_transpose3d(torch.randn(1, 2, 3, 3, 3), torch.randn(3, 2, 2, 2, 2)))
err(lambda: F.conv_transpose3d(torch.randn(4, 4), torch.randn(1, 1, 2, 2, 2)))
err(lambda: F.conv_transpose3d(torch.randn(1, 1, 3, 3, 3), torch.randn(1, 1, 2, 2, 2), stride=2, output_padding=2))
err(lambda: F.max_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.avg_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.max_pool3d(torch.randn(1, 1, 2, 2, 2), 3))
err(lambda: F.max_pool3d(torch.randn(1, 1, 4, 4, 4), 2, padding=2))
err(lambda: F.max_pool3d(torch.randn(1, 1, 4, 4, 4), (2, 2)))
err(lambda: F.avg_pool3d(torch.randn(1, 1, 4, 4, 4), 5))
err(lambda: F.avg_pool3d(torch.randn(1, 1, 4, 4, 4), 2, divisor_override=0))
err(lambda: F.adaptive_avg_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.adaptive_max_pool3d(torch.randn(2, 3, 4), 2))
err(lambda: F.adaptive_avg_pool3d(torch.randn(1, 1, 4, 4, 4), (2, 2)))
err(lambda: nn.BatchNorm3d(3)(torch.randn(2, 3, 4, 4)))
err(lambda: nn.InstanceNorm3d(3)(torch.randn(2, 3, 4)))
err(lambda: F.interpolate(torch.randn(1, 1, 2, 2, 2), scale_factor=2, mode='bilinear'))
err(lambda: F.interpolate(torch.randn(1, 1, 2, 2), scale_factor=2, mode='trilinear'))
err(lambda: F.interpolate(torch.randn(1, 1, 2, 2, 2), size=(2, 2), mode='trilinear'))
err(lambda: F.interpolate(torch.randn(1, 1, 2, 2, 2), scale_factor=2, mode='nearest', align_corners=True))
