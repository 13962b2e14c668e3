# torch.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian,
# functional_call and stack_module_state, composed with each other and with
# vmap (per-sample gradients, model ensembles), and their error texts.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call
from torch.func import stack_module_state


def r(t):
    return [round(v, 4) + 0.0 for v in t.reshape(-1).tolist()]


torch.manual_seed(0)
x = torch.randn(3)
y = torch.randn(3)


def f(u):
    return (u.sin() * u).sum()


g = grad(f)(x)
print('grad', r(g), g.requires_grad, g.grad_fn is None)
print('grad of grad', round(grad(grad(lambda s: s.sin() * s * s))(torch.tensor(0.7)).item(), 4))
ga, gb = grad(lambda a, b: (a * b.exp()).sum(), argnums=(0, 1))(x, y)
print('argnums', r(ga), r(gb))
gn = grad(lambda a, b: (a * b).sum(), argnums=-1)(x, y)
print('argnum -1', r(gn))
g, aux = grad(lambda u: ((u * u).sum(), u.mean()), has_aux=True)(x)
print('has_aux', r(g), round(aux.item(), 4), aux.requires_grad)
g, v = grad_and_value(f)(x)
print('grad_and_value', r(g), round(v.item(), 4), v.requires_grad)
g = grad(lambda d: (d['w'] * d['b']).sum())({'w': x, 'b': y})
print('dict grad', sorted(g.keys()), r(g['w']), r(g['b']))
g = grad(lambda u: (u * 0).sum() + 1.0)(x)
print('constant', r(g))
g = grad(lambda u, v: (u * 2).sum())(x, y)
print('unused arg', r(g))

# Inputs with history of their own: the gradient is differentiable.
xr = x.clone().requires_grad_(True)
g = grad(f)(xr)
print('outer history', g.grad_fn is not None)
g.sum().backward()
print('second via backward', r(xr.grad))
with torch.no_grad():
    print('under no_grad', r(grad(f)(x)))

# vjp / jvp
out, fn = vjp(lambda u: u.sin() * 2, x)
print('vjp out', r(out), out.requires_grad)
(ct,) = fn(torch.ones(3))
print('vjp', r(ct), ct.requires_grad)
print('vjp again', r(fn(y)[0]))
out, fn = vjp(lambda a, b: (a * b, a + b), x, y)
ga, gb = fn((torch.ones(3), y))
print('vjp tuple', r(out[0]), r(ga), r(gb))
out, fn, aux = vjp(lambda u: (u.exp(), u.sum()), x, has_aux=True)
print('vjp aux', r(fn(torch.ones(3))[0]), round(aux.item(), 4))
out, t = jvp(lambda u: u.sin() * u, (x,), (torch.ones(3),))
print('jvp', r(out), r(t), t.requires_grad)
out, t = jvp(lambda a, b: (a * b).sum(), (x, y), (y, x))
print('jvp two', round(out.item(), 4), round(t.item(), 4))
out, t = jvp(lambda a: (a.exp(), a * 3), (x,), (y,))
print('jvp tuple out', r(t[0]), r(t[1]))

# Jacobians and Hessians
A = torch.randn(2, 3)
j = jacrev(lambda u: A @ u.tanh())(x)
print('jacrev', tuple(j.shape), r(j))
j2 = jacfwd(lambda u: A @ u.tanh())(x)
print('jacfwd', tuple(j2.shape), (j - j2).abs().max().item() < 1e-5, j2.requires_grad)
ja, jb = jacrev(lambda a, b: a * b, argnums=(0, 1))(x, y)
print('jacrev argnums', r(ja), r(jb))
jo = jacrev(lambda u: (u.sum(), u * u))(x)
print('jacrev outputs', tuple(jo[0].shape), tuple(jo[1].shape), r(jo[0]), r(jo[1]))
jd = jacrev(lambda d: d['a'] * 2 + d['b'].sum())({'a': x, 'b': torch.ones(2)})
print('jacrev dict', tuple(jd['a'].shape), tuple(jd['b'].shape), r(jd['b']))
j, aux = jacrev(lambda u: (u.cos(), u.max()), has_aux=True)(x)
print('jacrev aux', r(j.diagonal()), round(aux.item(), 4))
M = torch.randn(2, 2)
jm = jacrev(lambda m: m @ m)(M)
print('jacrev matrix', tuple(jm.shape), r(jm)[:8])


def quad(u):
    return (u ** 3).sum() + (u[0] * u[1] * u[2])


h = hessian(quad)(x)
print('hessian', tuple(h.shape), r(h), h.requires_grad)
h2 = jacrev(jacrev(quad))(x)
print('jacrev jacrev', (h - h2).abs().max().item() < 1e-5)
h3 = jacfwd(jacfwd(quad))(x)
print('jacfwd jacfwd', (h - h3).abs().max().item() < 1e-5)
hb = hessian(lambda a, b: (a * a * b * b).sum(), argnums=1)(x, y)
print('hessian argnums', r(hb))

# Composed with vmap
xs = torch.randn(4, 3)
print('vmap grad', r(vmap(grad(f))(xs)))
print('vmap jacrev', tuple(vmap(jacrev(torch.sin))(xs).shape))
print('vmap hessian diag', r(vmap(hessian(quad))(xs)[:, 0, 0]))
print('grad of vmap', r(grad(lambda u: vmap(torch.dot, in_dims=(0, None))(xs, u).sum())(x)))

# Per-sample gradients, PyTorch's tutorial.
torch.manual_seed(1)
model = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 3))
data = torch.randn(6, 4)
targets = torch.tensor([0, 1, 2, 1, 0, 2])
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    tgt = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, tgt)


per_sample = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
print('per-sample keys', list(per_sample.keys()))
print('per-sample shapes', [tuple(v.shape) for v in per_sample.values()])
print('per-sample 2.bias', r(per_sample['2.bias']))
print('per-sample 0.weight[3]', r(per_sample['0.weight'][3]))
model.zero_grad()
F.cross_entropy(model(data[3:4]), targets[3:4]).backward()
print('matches loop', (model[0].weight.grad - per_sample['0.weight'][3]).abs().max().item() < 1e-5)
print('params restored', model[0].weight is list(model.parameters())[0], model[0].weight.requires_grad)
print('per-sample grad_fn', per_sample['0.bias'].grad_fn is None)

# functional_call variants
lin = nn.Linear(3, 2)
new = {'weight': torch.ones(2, 3), 'bias': torch.zeros(2)}
print('functional_call', r(functional_call(lin, new, (x,))))
print('single arg', r(functional_call(lin, new, x)))
print('partial', r(functional_call(lin, {'bias': torch.ones(2)}, x) - lin(x)))
print('stateless', r(torch.nn.utils.stateless.functional_call(lin, new, (x,))))
print('kwargs', r(functional_call(nn.Identity(), {}, args=(), kwargs={'input': x})))
bn = nn.BatchNorm1d(3)
bn.eval()
mean = torch.tensor([1.0, 2.0, 3.0])
print('buffers', r(functional_call(bn, {'running_mean': mean}, (xs,))[0]))
print('buffer restored', r(bn.running_mean))


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight

    def forward(self, v):
        return self.b(self.a(v))


tied = Tied()
v2 = torch.tensor([1.0, -2.0])
print('tied', r(functional_call(tied, {'a.weight': torch.eye(2) * 2}, (v2,))))
print('untied', r(functional_call(tied, {'a.weight': torch.eye(2) * 2}, (v2,), tie_weights=False) -
                  tied.b(torch.eye(2) @ v2 * 2)))

# Ensembles
torch.manual_seed(2)
models = [nn.Linear(3, 2) for _ in range(4)]
sp, sb = stack_module_state(models)
print('stacked', [(k, tuple(v.shape), v.requires_grad, v.is_leaf) for k, v in sp.items()], sb)
base = nn.Linear(3, 2)
ens = vmap(lambda p, b, v: functional_call(base, (p, b), (v,)), in_dims=(0, 0, None))(sp, sb, x)
print('ensemble', tuple(ens.shape), r(ens))
print('ensemble check', (ens[2] - models[2](x)).abs().max().item() < 1e-5)

# A closure over tensors that require grad: the gradient keeps their history
# (a gradient penalty trains the critic through it).
torch.manual_seed(3)
critic = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
pts = torch.randn(5, 3)
gp = vmap(grad(lambda p: critic(p).sum()))(pts)
print('closure grad', gp.requires_grad, tuple(gp.shape))
penalty = ((gp.norm(dim=1) - 1) ** 2).mean()
penalty.backward()
print('penalty', round(penalty.item(), 4), r(critic[0].bias.grad))
out, t = jvp(lambda u: F.gelu(u) * 2, (x,), (y,))
print('jvp gelu', r(t))
print('jvp layer_norm', r(jvp(lambda u: F.layer_norm(u, (3,)), (x,), (y,))[1]))
seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 2)))
ones = {k: torch.ones_like(v) for k, v in seq.named_parameters()}
print('nested names', list(ones.keys()), r(functional_call(seq, ones, (x,))))
bn = nn.BatchNorm1d(3)
rm, rv, nb = torch.zeros(3), torch.ones(3), torch.tensor(0)
functional_call(bn, {'running_mean': rm, 'running_var': rv, 'num_batches_tracked': nb}, xs)
print('train buffers', r(rm), r(rv), nb.item(), r(bn.running_mean))
out, fn = vjp(lambda u: u * 2, x)


def report(fn):
    try:
        fn()
        print('no error')
    except Exception as e:
        print(type(e).__name__, str(e))


report(lambda: grad(lambda u: u * 2)(x))
report(lambda: grad(lambda u: 2.0)(x))
report(lambda: grad(lambda u: u.sum(), has_aux=True)(x))
report(lambda: grad(lambda u: u.sum(), argnums=1)(x))
report(lambda: grad(lambda u: u.sum(), argnums=(0, 0))(x))
report(lambda: grad(lambda u: u.sum(), argnums=[0])(x))
report(lambda: grad(lambda u, n: u.sum() * n, argnums=1)(x, 2))
report(lambda: vjp(lambda u: u.argmax(), x))
report(lambda: jvp(lambda u: u, [x], [y]))
report(lambda: jacrev(lambda u: 3)(x))
report(lambda: functional_call(lin, 5, (x,)))
report(lambda: functional_call(lin, ({'weight': x}, {'weight': x}), (x,)))
report(lambda: functional_call(lin, {'bias': torch.zeros(2), 'scale': x}, (x,), strict=True))
report(lambda: functional_call(tied, {'a.weight': torch.eye(2), 'b.weight': torch.ones(2, 2)}, (v2,)))
report(lambda: stack_module_state([]))
report(lambda: stack_module_state([nn.Linear(3, 2), nn.Linear(3, 2).eval()]))
report(lambda: fn(torch.ones(4)))
