# torch.testing.assert_close (default tolerances per dtype, messages, nested containers) and
# make_tensor; torch.nn.utils.parametrize and parametrizations.weight_norm / spectral_norm.
import torch
import torch.nn as nn
from torch.testing import assert_close
from torch.nn.utils import parametrize, parametrizations


def r(t, n=4):
    return [round(v, n) for v in t.detach().reshape(-1).tolist()]


def check(*args, **kw):
    try:
        assert_close(*args, **kw)
        print('ok')
    except Exception as e:
        print(type(e).__name__, repr(str(e)))


print('--- assert_close')
a = torch.tensor([1.0, 2.0, 3.0, 4.0])
b = torch.tensor([1.0, 2.5, 3.0, 4.1])
check(a, b)
check(a, a + 1e-6)
check(a, a * (1 + 2e-6))
check(a, b.double())
check(a, b.double(), check_dtype=False, atol=1, rtol=0)
check(a[:3], b)
check(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]))
check(torch.tensor([True, False]), torch.tensor([True, True]))
check(torch.tensor([[1., 2.], [3., float('nan')]]), torch.tensor([[1., 2.], [3., float('nan')]]))
check(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True)
check(torch.tensor([float('inf')]), torch.tensor([float('inf')]))
check(torch.tensor([float('inf')]), torch.tensor([float('-inf')]))
check(torch.tensor([1., 2., 3.]), torch.tensor([0., 2., 3.]))
check(a, a.clone().requires_grad_())
check(torch.tensor(1.), torch.tensor(2.))
check(1.0, 1.1)
check(1, 2)
check(1, 1.0)
check(0.1 + 0.2, 0.3)
check(True, False)
check(None, None)
check(None, 1.0)
check([a, 1.0], (a, 1.0))
check([a], [b])
check([a, a], [a])
check({'x': a, 'y': [a, b]}, {'x': a, 'y': [a, a]})
check({'x': a}, {'y': a})
check(a, b, rtol=1e-3)
check(a, b, atol=1e-3)
check(a, b, rtol=0.2, atol=0)
check(a, b, msg='custom')
check(a, b, msg=lambda m: 'X:' + m.splitlines()[0])
check(a, [1.0, 2.0, 3.0, 4.0])
check(a, 1.0)
check(torch.ones(3, 4), torch.ones(3, 4) + torch.arange(12.).view(3, 4) * 1e-3)
check(torch.zeros(2, 3), torch.zeros(3, 2))
check(a.double(), a.double() + 1e-6)
check(a.double(), a.double() + 1e-8)
check(a.half(), (a + 1e-3).half())
check(a.half(), (a * 1.01).half())
check(a.bfloat16(), (a * 1.01).bfloat16())
check(torch.tensor([10, 20], dtype=torch.int32), torch.tensor([10, 21], dtype=torch.int32))

print('--- make_tensor')
torch.manual_seed(0)
t = torch.testing.make_tensor(2, 3, dtype=torch.float32, device='cpu')
print(t.shape, t.dtype, bool((t >= -9).all()), bool((t < 9).all()), t.requires_grad)
t = torch.testing.make_tensor((4,), dtype=torch.int64, device='cpu', low=0, high=3)
print(t.shape, t.dtype, bool((t >= 0).all()), bool((t < 3).all()))
t = torch.testing.make_tensor([2, 2], dtype=torch.float64, device='cpu', low=1.0, high=2.0, requires_grad=True)
print(t.shape, t.dtype, bool((t >= 1).all()), bool((t < 2).all()), t.requires_grad)
t = torch.testing.make_tensor(3, 4, dtype=torch.float32, device='cpu', noncontiguous=True)
print(t.shape, t.is_contiguous())
print(torch.testing.make_tensor(5, dtype=torch.bool, device='cpu').dtype)
try:
    torch.testing.make_tensor(2, dtype=torch.float32, device='cpu', low=2.0, high=1.0)
except ValueError as e:
    print('ValueError', e)
try:
    torch.testing.make_tensor(2, dtype=torch.int64, device='cpu', requires_grad=True)
except ValueError as e:
    print('ValueError', e)

print('--- parametrize')


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, X):
        return X * self.s

    def right_inverse(self, Y):
        return Y / self.s


torch.manual_seed(0)
m = nn.Linear(3, 3)
w0 = m.weight.detach().clone()
parametrize.register_parametrization(m, 'weight', Symmetric())
print(type(m).__name__, isinstance(m, nn.Linear), parametrize.is_parametrized(m),
      parametrize.is_parametrized(m, 'weight'), parametrize.is_parametrized(m, 'bias'))
print(parametrize.type_before_parametrizations(m) is nn.Linear)
print(m)
print([n for n, _ in m.named_parameters()], list(m.state_dict().keys()))
print(r(m.weight), bool((m.weight == m.weight.T).all()))
print(r(m.parametrizations.weight.original), m.parametrizations.weight.original is not None)
x = torch.linspace(-1, 1, 6).reshape(2, 3)
out = m(x)
out.sum().backward()
print(r(out), r(m.parametrizations.weight.original.grad))
parametrize.register_parametrization(m, 'weight', Scale(2.0))
print(r(m.weight), len(m.parametrizations.weight))
with parametrize.cached():
    print(m.weight is m.weight)
print(m.weight is m.weight)
try:
    m.weight = torch.eye(3)
except RuntimeError as e:
    print('RuntimeError', e)
m2 = nn.Linear(3, 3)
parametrize.register_parametrization(m2, 'weight', Scale(2.0))
parametrize.register_parametrization(m2, 'weight', Scale(0.25))
orig = m2.parametrizations.weight.original
m2.weight = torch.eye(3)
print(r(m2.parametrizations.weight.original), r(m2.weight), m2.parametrizations.weight.original is orig)
parametrize.remove_parametrizations(m, 'weight')
print(type(m).__name__, [n for n, _ in m.named_parameters()], r(m.weight), hasattr(m, 'parametrizations'))

m = nn.Linear(2, 2)
parametrize.register_parametrization(m, 'bias', Scale(3.0))
b_orig = m.parametrizations.bias.original.detach().clone()
parametrize.remove_parametrizations(m, 'bias', leave_parametrized=False)
print(r(m.bias) == r(b_orig), type(m).__name__)
try:
    parametrize.remove_parametrizations(m, 'bias')
except ValueError as e:
    print('ValueError', str(e).splitlines()[-1][-30:])
try:
    parametrize.register_parametrization(m, 'nothere', Scale(1.0))
except ValueError as e:
    print('ValueError', str(e)[-60:])


class Shrink(nn.Module):
    def forward(self, X):
        return X[:1]


try:
    parametrize.register_parametrization(nn.Linear(2, 2), 'weight', Shrink())
except ValueError as e:
    print('ValueError', e)

print('--- weight_norm')
torch.manual_seed(0)
m = nn.Linear(3, 4)
w_before = m.weight.detach().clone()
parametrizations.weight_norm(m)
print(m)
print([n for n, _ in m.named_parameters()], list(m.state_dict().keys()))
g = m.parametrizations.weight.original0
v = m.parametrizations.weight.original1
print(list(g.shape), list(v.shape), r(g), bool(torch.allclose(m.weight, w_before)))
print(type(m.weight.grad_fn).__name__)
out = m(torch.ones(2, 3))
out.pow(2).sum().backward()
print(r(g.grad), r(v.grad)[:6])
for dim, mod in [(None, nn.Conv1d(2, 3, 3)), (1, nn.Conv1d(2, 3, 3)), (-1, nn.Linear(3, 4))]:
    parametrizations.weight_norm(mod, dim=dim)
    print(dim, list(mod.parametrizations.weight.original0.shape), type(mod.weight.grad_fn).__name__)
m = nn.Linear(3, 4)
parametrizations.weight_norm(m)
with torch.no_grad():
    m.parametrizations.weight.original0.mul_(2.0)
print(r(m.weight.norm(dim=1)), r(m.parametrizations.weight.original0))
parametrize.remove_parametrizations(m, 'weight')
print(type(m).__name__, [n for n, _ in m.named_parameters()], r(m.weight.norm(dim=1)))

print('--- spectral_norm')
torch.manual_seed(0)
m = nn.Linear(5, 3)
parametrizations.spectral_norm(m)
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])
sn = m.parametrizations.weight[0]
print(r(sn._u), r(sn._v), sn.dim, sn.n_power_iterations, sn.eps)
W = m.weight
print(round(torch.linalg.svdvals(W.detach())[0].item(), 4), type(W.grad_fn).__name__)
print(r(W))
m.eval()
u_before = r(sn._u)
_ = m.weight
print(r(sn._u) == u_before, sn.training)
m.train()
y = m(torch.ones(2, 5))
y.sum().backward()
print(r(y), r(m.parametrizations.weight.original.grad)[:5])
torch.manual_seed(1)
c = nn.ConvTranspose2d(2, 3, 3)
parametrizations.spectral_norm(c, n_power_iterations=2)
print(c.parametrizations.weight[0].dim, list(c.parametrizations.weight[0]._u.shape),
      list(c.parametrizations.weight[0]._v.shape), r(c.weight)[:4])
try:
    parametrizations.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
except ValueError as e:
    print('ValueError', e)
try:
    parametrizations.spectral_norm(nn.Linear(2, 2), name='nothere')
except ValueError as e:
    print('ValueError', str(e)[-40:])

print('--- orthogonal')


def orth_report(m, x):
    W = m.weight
    n, k = W.shape
    G = W.T @ W if n >= k else W @ W.T
    print(type(m).__name__, list(W.shape), round((G - torch.eye(min(n, k))).abs().max().item(), 4),
          m.parametrizations.weight[0].orthogonal_map.name, r(W)[:4])
    y = m(x).sum()
    y.backward()
    g = m.parametrizations.weight.original.grad
    print('  ', round(g.abs().sum().item(), 4), r(g)[-4:])


for shape, kw in [((4, 4), {}), ((5, 3), {}), ((3, 5), {}), ((4, 4), {'orthogonal_map': 'cayley'}),
                  ((5, 3), {'orthogonal_map': 'matrix_exp'}), ((4, 4), {'orthogonal_map': 'householder'})]:
    torch.manual_seed(3)
    m = nn.Linear(shape[1], shape[0])
    parametrizations.orthogonal(m, **kw)
    orth_report(m, torch.linspace(-1, 1, 2 * shape[1]).reshape(2, shape[1]))
# Training moves the weight along orthogonal matrices.
torch.manual_seed(4)
m = nn.Linear(3, 3)
parametrizations.orthogonal(m)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.linspace(-1, 1, 6).reshape(2, 3)
for _ in range(3):
    opt.zero_grad()
    ((m(x) - 1.0) ** 2).sum().backward()
    opt.step()
W = m.weight
print(r(W), round((W.T @ W - torch.eye(3)).abs().max().item(), 4))
m.weight = torch.eye(3)
print(r(m.weight), r(m.parametrizations.weight.original))
for bad in [(nn.Linear(3, 3), {'orthogonal_map': 'qr'}), (nn.Conv1d(1, 1, 1), {'name': 'bias'})]:
    try:
        parametrizations.orthogonal(bad[0], **bad[1])
    except ValueError as e:
        print('ValueError', e)
