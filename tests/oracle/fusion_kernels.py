# Work the fused code generator compiles: pointwise chains with broadcasting
# and non-contiguous inputs, row reductions (softmax, log_softmax, layer_norm,
# sums over the last dim) with their producers and consumers, in-place
# updates, and the backward passes of all of them. Each function is
# torch.compile'd and called several times (the compiled kernels run from the
# first call on), with sizes that are not multiples of any vector width.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def show(name, t):
    flat = t.detach().reshape(-1).double()
    print(name, list(t.shape), t.dtype, round(flat.sum().item(), 4), round(flat.abs().max().item(), 4),
          [round(v, 4) for v in flat[:5].tolist()])


@torch.compile
def gelu_chain(x, w, b):
    y = x * w + b
    return 0.5 * y * (1.0 + torch.tanh(0.7978845608 * (y + 0.044715 * y ** 3)))


@torch.compile
def norm_gelu(x, w, b):
    return F.gelu(F.layer_norm(x, (x.shape[-1],), w, b))


@torch.compile
def softmaxes(x):
    return torch.softmax(x * 2.0, dim=-1), F.log_softmax(x - 1.0, dim=-1)


@torch.compile
def reductions(x):
    return x.sum(-1), (x * x).mean(-1, keepdim=True), x.amax(-1), x - x.amax(-1, keepdim=True)


@torch.compile
def mixed(a, b, c):
    m = torch.where(a > b, a, b * 0.5)
    m = torch.clamp(m, min=-0.25)
    r = torch.maximum(m, c) - torch.minimum(a, c)
    return torch.sigmoid(r) * torch.exp(-r.abs()) + torch.sqrt(a * a + 1.0) + torch.rsqrt(b * b + 2.0)


@torch.compile
def powers(x):
    return x ** 2 + x ** 3 + (x.abs() + 1.0) ** 0.5 + (x.abs() + 1.0) ** -1 + (x.abs() + 0.5) ** 1.7


@torch.compile
def erf_silu(x):
    return torch.erf(x) + F.silu(x) + F.gelu(x) + torch.log1p(x.abs()) + torch.log(x.abs() + 1e-3)


@torch.compile
def ints_and_bools(i, x):
    k = (i * 3 - 1) % 7
    mask = (x > 0) & (k > 2)
    return k.float() * x + mask.float(), (i + 2) * i - 5, mask


@torch.compile
def sgd_step(p, g, buf, lr):
    buf.mul_(0.9).add_(g)
    p.add_(buf, alpha=-lr)
    return p


for step in range(3):
    x = torch.randn(37, 29)
    w = torch.randn(29)
    b = torch.randn(29)
    show('gelu_chain', gelu_chain(x, w, b))
    show('gelu_chain_t', gelu_chain(x.t(), torch.randn(29, 1), torch.randn(1)))
    show('norm_gelu', norm_gelu(x, w, b))
    s, ls = softmaxes(x)
    show('softmax', s)
    show('log_softmax', ls)
    show('softmax_strided', softmaxes(x[:, ::2])[0])
    for i, r in enumerate(reductions(x)):
        show('reduction' + str(i), r)
    a, bb, c = torch.randn(5, 1, 7), torch.randn(3, 7), torch.randn(7)
    show('mixed', mixed(a, bb, c))
    show('powers', powers(torch.randn(33)))
    show('erf_silu', erf_silu(torch.randn(19, 3)))
    k, j, mask = ints_and_bools(torch.arange(12).reshape(3, 4), torch.randn(3, 4))
    show('ints_k', k)
    show('ints_j', j)
    print('mask', mask.tolist())

p = torch.randn(41)
buf = torch.zeros(41)
for step in range(4):
    sgd_step(p, torch.randn(41), buf, 0.1 / (step + 1))
    show('sgd_p', p)
    show('sgd_buf', buf)


# Backward through fused forward kernels, and the backward kernels themselves.
@torch.compile
def loss_fn(x, w, b, target):
    h = F.layer_norm(x, (x.shape[-1],), w, b)
    h = F.gelu(h, approximate='tanh') * torch.sigmoid(h)
    logits = h[:, :10] * 3.0
    return F.cross_entropy(logits, target) + F.softmax(h, dim=-1).pow(2).sum() * 0.01


for step in range(3):
    x = torch.randn(16, 24, requires_grad=True)
    w = torch.randn(24, requires_grad=True)
    b = torch.randn(24, requires_grad=True)
    target = torch.randint(0, 10, (16,))
    loss = loss_fn(x, w, b, target)
    loss.backward()
    show('loss', loss)
    show('x.grad', x.grad)
    show('w.grad', w.grad)
    show('b.grad', b.grad)

# A small model trained with Adam: the optimizer's update fuses per parameter.
model = torch.nn.Sequential(torch.nn.Linear(13, 32), torch.nn.GELU(), torch.nn.LayerNorm(32), torch.nn.Linear(32, 5))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
data = torch.randn(64, 13)
labels = torch.randint(0, 5, (64,))
for step in range(6):
    opt.zero_grad()
    out = model(data)
    loss = F.cross_entropy(out, labels)
    loss.backward()
    opt.step()
    print('adam step', step, round(loss.item(), 4))
show('final weight', model[0].weight)
