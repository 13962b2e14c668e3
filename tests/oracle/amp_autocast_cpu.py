# CPU autocast (torch.autocast / torch.amp / torch.cpu.amp) as in PyTorch:
# the op lists' dtypes, bfloat16 and float16 matmul numbers, autograd through
# the casts, nesting, the decorator form, GradScaler('cpu') and sdpa_kernel.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend


def r(t, n=4):
    return [round(v, n) for v in t.detach().float().flatten().tolist()]


def name(t):
    return str(t.dtype).replace('torch.', '')


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3))
x = torch.randn(4, 6) * 3
target = torch.randn(4, 3)
for dt in (torch.bfloat16, torch.float16):
    model.zero_grad()
    with torch.autocast('cpu', dtype=dt):
        out = model(x)
        loss = F.mse_loss(out, target)
        print(name(out), name(loss), out.grad_fn.name(), torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    loss.backward()
    print(r(out), round(loss.item(), 4))
    print(name(model[0].weight.grad), r(model[0].weight.grad)[:6], r(model[2].bias.grad))

# Matmul rounding: float32 sums rounded once to the low-precision type (bias included).
a, b, bias = torch.randn(3, 37), torch.randn(37, 4), torch.randn(4)
with torch.autocast('cpu'):
    print(r(a @ b, 6), r(F.linear(a, b.t(), bias), 6), r(torch.addmm(bias, a, b, beta=0.5, alpha=2), 6))
with torch.autocast('cpu', dtype=torch.float16):
    print(r(torch.mm(a, b), 6), r(F.linear(a, b.t(), bias), 6))

# The lists: lower precision, float32, promote, and ops that keep their inputs' dtypes.
p, q = torch.randn(2, 3), torch.randn(3, 2)
img, w = torch.randn(1, 2, 5, 5), torch.randn(3, 2, 2, 2)
bf = torch.randn(2, 3).bfloat16()
with torch.autocast('cpu'):
    print('lower', [name(t) for t in (torch.mm(p, q), torch.bmm(p[None], q[None]), torch.matmul(p, q),
                                      F.conv2d(img, w), F.conv1d(img[:, :, 0], w[:, :, 0]), F.prelu(p, torch.ones(1)),
                                      F.scaled_dot_product_attention(p[None], p[None], p[None]),
                                      torch.baddbmm(torch.zeros(1, 2, 2), p[None], q[None]))])
    print('fp32', [name(t) for t in (F.mse_loss(bf, bf), F.l1_loss(bf, bf), F.cross_entropy(bf, torch.tensor([0, 2])),
                                     F.binary_cross_entropy_with_logits(bf, bf.sigmoid()), bf.prod(),
                                     torch.cdist(bf, bf), F.smooth_l1_loss(bf, bf), torch.linalg.inv(bf[:, :2]))])
    print('promote', [name(t) for t in (torch.cat([bf, p]), torch.stack([bf, bf]), torch.cat([bf, p.double()]),
                                        torch.index_copy(bf, 0, torch.tensor([1]), p[:1]))])
    print('plain', [name(t) for t in (p + bf, torch.relu(p), torch.softmax(bf, 1), torch.mv(p, q[:, 0]),
                                      torch.mm(p.double(), q.double()), torch.mm(p.long(), q.long()))])
    try:
        torch.cat([bf, bf.half()])
    except RuntimeError as e:
        print('RuntimeError', e)

# Nesting, enabled=False, the decorator form and the deprecated spellings.
with torch.autocast('cpu'):
    with torch.autocast('cpu', enabled=False):
        print('off', name(torch.mm(p, q)), torch.is_autocast_enabled('cpu'))
    with torch.amp.autocast('cpu', dtype=torch.float16):
        print('fp16', name(torch.mm(p, q)), torch.get_autocast_dtype('cpu'))
    print('back', name(torch.mm(p, q)), torch.is_autocast_enabled(), torch.is_autocast_cpu_enabled())
print('after', name(torch.mm(p, q)), torch.is_autocast_enabled('cpu'), torch.get_autocast_cpu_dtype())


@torch.autocast('cpu')
def f(u, v):
    return u @ v


print('decorated', name(f(p, q)), torch.is_autocast_enabled('cpu'))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    with torch.cpu.amp.autocast():
        print('cpu.amp', name(torch.mm(p, q)))
    with torch.autocast('cpu', dtype=torch.float64):
        print('float64', name(torch.mm(p, q)), torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    torch.cpu.amp.GradScaler()
print([(w.category.__name__, str(w.message)) for w in caught])
try:
    torch.autocast(device_type=3)
except ValueError as e:
    print('ValueError', e)

# GradScaler('cpu'): scale, unscale_, a skipped step on inf, backoff and growth.
torch.manual_seed(1)
lin = nn.Linear(3, 1)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
scaler = torch.amp.GradScaler('cpu', init_scale=1024.0, growth_interval=2)
for step in range(4):
    opt.zero_grad()
    with torch.autocast('cpu'):
        loss = lin(torch.ones(2, 3)).float().pow(2).mean()
    scaled = scaler.scale(loss)
    scaled.backward()
    if step == 1:
        lin.weight.grad[0, 0] = float('inf')
    scaler.unscale_(opt)
    print(step, round(scaled.item(), 2), r(lin.weight.grad), scaler.step(opt))
    scaler.update()
    print(scaler.get_scale(), r(lin.weight), scaler.state_dict()['_growth_tracker'])
try:
    scaler.unscale_(opt)
    scaler.unscale_(opt)
except RuntimeError as e:
    print('RuntimeError', e)

# sdpa_kernel: the math backend always runs; with no CPU backend left, the call fails.
qkv = torch.randn(1, 2, 3, 4)
with sdpa_kernel(SDPBackend.MATH) as ctx:
    print(ctx, r(F.scaled_dot_product_attention(qkv, qkv, qkv))[:4])
with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
    print(r(F.scaled_dot_product_attention(qkv, qkv, qkv))[:4])
try:
    with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
        F.scaled_dot_product_attention(qkv, qkv, qkv)
except RuntimeError as e:
    print('RuntimeError', e)
print(SDPBackend.MATH, repr(SDPBackend.FLASH_ATTENTION), SDPBackend.MATH.value, r(F.scaled_dot_product_attention(qkv, qkv, qkv))[:2])
