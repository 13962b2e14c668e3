# F.interpolate(antialias=True): bilinear, bicubic and lanczos, shrinking and
# growing, with sizes, scale factors and align_corners; gradients through it,
# and the argument errors.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()[:6]]


x = torch.randn(1, 2, 9, 11)
for mode in ['bilinear', 'bicubic']:
    for kw in [dict(size=(4, 5)), dict(size=(12, 14)), dict(scale_factor=0.45), dict(scale_factor=(0.3, 1.6)),
               dict(scale_factor=0.45, recompute_scale_factor=True), dict(size=(3, 4), align_corners=True)]:
        y = F.interpolate(x, mode=mode, antialias=True, **kw)
        print(mode, kw, tuple(y.shape), r(y), round(y.sum().item(), 4))
y = F.interpolate(x, size=(4, 6), mode='lanczos', antialias=True)
print('lanczos', tuple(y.shape), r(y), round(y.sum().item(), 4))
y = F.interpolate(x.double(), size=(20, 5), mode='lanczos', antialias=True)
print('lanczos f64', r(y), round(y.sum().item(), 6))
img = torch.rand(2, 3, 16, 16)
small = F.interpolate(img, size=(5, 5), mode='bilinear', antialias=True)
plain = F.interpolate(img, size=(5, 5), mode='bilinear')
print(round(small.std().item(), 4), round(plain.std().item(), 4), round(small.mean().item(), 4))
g = torch.randn(1, 1, 6, 7, requires_grad=True)
out = F.interpolate(g, size=(3, 3), mode='bicubic', antialias=True)
print(out.grad_fn.name())
out.pow(2).sum().backward()
print(r(g.grad))
g.grad = None
F.interpolate(g, scale_factor=0.5, mode='bilinear', antialias=True).sum().backward()
print(r(g.grad), F.interpolate(g, size=(2, 2), mode='lanczos', antialias=True).grad_fn.name())


def attempt(fn):
    try:
        print('ok', tuple(fn().shape))
    except Exception as e:
        print(type(e).__name__, e)


attempt(lambda: F.interpolate(x, scale_factor=2, mode='nearest', antialias=True))
attempt(lambda: F.interpolate(x[0], scale_factor=2, mode='linear', antialias=True))
attempt(lambda: F.interpolate(x, scale_factor=2, mode='lanczos'))
attempt(lambda: F.interpolate(x, scale_factor=2, mode='lanczos', antialias=True, align_corners=True))
attempt(lambda: F.interpolate(x[0], scale_factor=2, mode='lanczos'))
attempt(lambda: F.interpolate(x, scale_factor=2, mode='cubic'))
attempt(lambda: F.interpolate(x, scale_factor=2, mode='bilinear', antialias=False))
