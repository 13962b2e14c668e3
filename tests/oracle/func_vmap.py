# torch.vmap / torch.func.vmap: in_dims and out_dims pytrees, nested vmap,
# non-tensor arguments, randomness modes and PyTorch's error texts.
import torch
import torch.nn.functional as F
from torch.func import vmap


def r(t):
    return [round(v, 4) + 0.0 for v in t.reshape(-1).tolist()]


torch.manual_seed(0)
x = torch.randn(4, 3)
y = torch.randn(4, 3)
w = torch.randn(3)

print('same object', torch.vmap is vmap)
d = vmap(torch.dot)(x, y)
print('dot', tuple(d.shape), r(d))
d = vmap(torch.dot, in_dims=(0, None))(x, w)
print('dot none', r(d))
d = vmap(torch.dot, in_dims=(1, 1))(x.t(), y.t())
print('dot dim1', r(d))
d = vmap(torch.dot, in_dims=(-1, 0))(x.t(), y)
print('dot neg', r(d))

# Nested: the outer product table of every pair of rows.
m = vmap(vmap(torch.dot, in_dims=(None, 0)), in_dims=(0, None))(x, y)
print('nested', tuple(m.shape), r(m))
a = torch.randn(2, 3, 4)
b = torch.randn(2, 4, 5)
bm = vmap(torch.mm)(a, b)
print('bmm', tuple(bm.shape), (bm - torch.bmm(a, b)).abs().max().item() < 1e-5)

# out_dims
o = vmap(lambda v: v * 2, out_dims=1)(x)
print('out_dims 1', tuple(o.shape), r(o))
o = vmap(lambda v: v.sum(), out_dims=0)(x)
print('scalar out', tuple(o.shape), r(o))
p, q = vmap(lambda v: (v.sum(), v * v), out_dims=(0, 1))(x)
print('tuple out', tuple(p.shape), tuple(q.shape), r(p), r(q))
res = vmap(lambda v: {'max': v.max(), 'min': v.min()})(x)
print('dict out', sorted(res.keys()), r(res['max']), r(res['min']))
o, n = vmap(lambda v: (v + 1, 3), out_dims=(0, None))(x)
print('none out', tuple(o.shape), n)
o = vmap(lambda v, c: v * c, in_dims=(0, None), out_dims=(-1,))(x, w)
print('neg out', tuple(o.shape), r(o))

# Pytree inputs: a dict and a list, with nested in_dims.
res = vmap(lambda d: d['a'] * d['b'], in_dims=({'a': 0, 'b': None},))({'a': x, 'b': w})
print('dict in', r(res))
res = vmap(lambda pair, s: pair[0] + pair[1] * s, in_dims=([0, 1], None))([x, y.t()], 2.0)
print('list in', r(res))
res = vmap(lambda t, scale=1.0: t * scale)(x, scale=-1.0)
print('kwargs', r(res))
res = vmap(lambda t, n: t.pow(n), in_dims=(0, None))(x, 2)
print('int arg', r(res))

# Composing with ordinary ops and autograd.
xs = torch.randn(5, 3, requires_grad=True)
out = vmap(lambda v: (v.sin() * w).sum())(xs)
out.sum().backward()
print('backward', r(xs.grad))

# randomness
torch.manual_seed(1)
s = vmap(lambda v: v + torch.rand(3), randomness='same')(torch.zeros(4, 3))
print('same rows equal', torch.equal(s[0], s[3]), r(s[0]), round(torch.rand(1).item(), 4))
torch.manual_seed(2)
dr = vmap(lambda v: F.dropout(v, 0.5), randomness='same')(torch.ones(3, 4))
print('dropout same', torch.equal(dr[0], dr[2]), r(dr[0]))
torch.manual_seed(1)
s = vmap(lambda v: v + torch.rand(3), randomness='different')(torch.zeros(4, 3))
print('different rows differ', not torch.equal(s[0], s[1]), tuple(s.shape))


@vmap
def norms(v):
    return v.norm()


print('decorator', r(norms(x)))


def report(fn):
    try:
        fn()
        print('no error')
    except Exception as e:
        print(type(e).__name__, str(e))


def add(u, v):
    return u + v


report(lambda: vmap(add)(x, torch.randn(5, 3)))
report(lambda: vmap(add, in_dims=(2, 0))(x, y))
report(lambda: vmap(add, in_dims=(0, 0))(x, 1.0))
report(lambda: vmap(add, in_dims=[0, 0])(x, y))
report(lambda: vmap(add, in_dims=(None, None))(x, y))
report(lambda: vmap(add, in_dims=(0, 'a'))(x, y))
report(lambda: vmap(lambda: x)())
report(lambda: vmap(lambda v: 1.5)(x))
report(lambda: vmap(lambda v: None)(x))
report(lambda: vmap(lambda v: v * 2, out_dims=None)(x))
report(lambda: vmap(add, randomness='sometimes'))
report(lambda: vmap(lambda v: v + torch.rand(3))(x))
report(lambda: vmap(add, chunk_size=0))
try:
    vmap(add, in_dims=(0, 0, 0))(x, y)
except ValueError as e:
    print('ValueError', str(e).split('.')[0])
print('rng untouched', round(torch.rand(1).item(), 4))
