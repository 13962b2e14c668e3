# A tiny DDPM and a mixture-of-experts layer as modern model code writes
# them: a cosine/linear beta schedule (linspace, cumprod, sqrt, F.pad),
# schedule values gathered by timestep and reshaped to [B, 1, 1, 1],
# sinusoidal time embeddings, a small UNet (GroupNorm, SiLU, skip
# connections through torch.cat, F.interpolate, attention through einsum),
# training with the three usual losses and the sampling loop; then an MoE
# router (softmax, topk, one_hot, torch.where / nonzero dispatch,
# index_add_, scatter_add_, a load-balancing loss), torch.random.fork_rng,
# a custom Function with set_materialize_grads(False), and the Python the
# scripts around such models lean on (__class_getitem__, __eq__ without
# __hash__, types.MappingProxyType); attention rows with every key masked out
# (zeros, as PyTorch's safe softmax) and a Function with setup_context.
import math
import types
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def cosine_beta_schedule(T, s=0.008):
    x = torch.linspace(0, T, T + 1, dtype=torch.float64)
    ac = torch.cos(((x / T) + s) / (1 + s) * math.pi * 0.5) ** 2
    ac = ac / ac[0]
    return torch.clip(1 - (ac[1:] / ac[:-1]), 0.0001, 0.9999).float()


T = 40
print('cosine', [round(v, 5) for v in cosine_beta_schedule(T)[:4].tolist()])
betas = torch.linspace(1e-4, 0.02, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - alphas_cumprod)
posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
print([round(v, 5) for v in alphas_cumprod[::8].tolist()], round(posterior_variance[1].item(), 7))


def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        half = self.dim // 2
        emb = math.log(10000) / (half - 1)
        emb = torch.exp(torch.arange(half, device=time.device) * -emb)
        emb = time[:, None] * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class Block(nn.Module):
    def __init__(self, dim, dim_out, groups=4):
        super().__init__()
        self.proj = nn.Conv2d(dim, dim_out, 3, padding=1)
        self.norm = nn.GroupNorm(groups, dim_out)
        self.act = nn.SiLU()

    def forward(self, x, scale_shift=None):
        x = self.norm(self.proj(x))
        if scale_shift is not None:
            scale, shift = scale_shift
            x = x * (scale + 1) + shift
        return self.act(x)


class ResnetBlock(nn.Module):
    def __init__(self, dim, dim_out, time_emb_dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_emb_dim, dim_out * 2))
        self.block1 = Block(dim, dim_out)
        self.block2 = Block(dim_out, dim_out)
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, time_emb):
        scale_shift = self.mlp(time_emb)[:, :, None, None].chunk(2, dim=1)
        h = self.block2(self.block1(x, scale_shift=scale_shift))
        return h + self.res_conv(x)


class Attention(nn.Module):
    def __init__(self, dim, heads=2, dim_head=8):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.heads = heads
        self.to_qkv = nn.Conv2d(dim, dim_head * heads * 3, 1, bias=False)
        self.to_out = nn.Conv2d(dim_head * heads, dim, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        q, k, v = map(lambda t: t.reshape(b, self.heads, -1, h * w), self.to_qkv(x).chunk(3, dim=1))
        sim = torch.einsum('b h d i, b h d j -> b h i j', q * self.scale, k)
        attn = (sim - sim.amax(dim=-1, keepdim=True).detach()).softmax(dim=-1)
        out = torch.einsum('b h i j, b h d j -> b h i d', attn, v)
        return self.to_out(out.permute(0, 1, 3, 2).reshape(b, -1, h, w))


class Unet(nn.Module):
    def __init__(self, dim=8, channels=1):
        super().__init__()
        tdim = dim * 4
        self.time_mlp = nn.Sequential(SinusoidalPositionEmbeddings(dim), nn.Linear(dim, tdim), nn.GELU(),
                                      nn.Linear(tdim, tdim))
        self.init_conv = nn.Conv2d(channels, dim, 1)
        self.down = ResnetBlock(dim, dim, tdim)
        self.downsample = nn.Conv2d(dim, dim * 2, 4, 2, 1)
        self.mid = ResnetBlock(dim * 2, dim * 2, tdim)
        self.attn = Attention(dim * 2)
        self.up = nn.Sequential(nn.Upsample(scale_factor=2, mode='nearest'), nn.Conv2d(dim * 2, dim, 3, padding=1))
        self.up_block = ResnetBlock(dim * 2, dim, tdim)
        self.final = nn.Conv2d(dim, channels, 1)

    def forward(self, x, time):
        x = self.init_conv(x)
        r = x.clone()
        t = self.time_mlp(time)
        h = self.down(x, t)
        x = self.mid(self.downsample(h), t)
        x = self.up(x + self.attn(x))
        x = self.up_block(torch.cat((x, h), dim=1), t)
        x = F.interpolate(x, scale_factor=0.5, mode='bilinear', align_corners=False)
        x = F.interpolate(x, size=(8, 8), mode='bilinear', align_corners=True)
        return self.final(x + r)


def q_sample(x_start, t, noise):
    return extract(sqrt_alphas_cumprod, t, x_start.shape) * x_start + \
        extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise


model = Unet()
print(model.time_mlp, sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.rand(16, 1, 8, 8) * 2 - 1
for step in range(3):
    batch = data[torch.randint(0, 16, (4,))]
    t = torch.randint(0, T, (4,)).long()
    noise = torch.randn_like(batch)
    pred = model(q_sample(batch, t, noise), t)
    loss = [F.smooth_l1_loss, F.l1_loss, F.mse_loss][step % 3](noise, pred)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), t.tolist())


@torch.no_grad()
def p_sample(x, t, t_index):
    mean = extract(sqrt_recip_alphas, t, x.shape) * (
        x - extract(betas, t, x.shape) * model(x, t) / extract(sqrt_one_minus_alphas_cumprod, t, x.shape))
    if t_index == 0:
        return mean
    return mean + torch.sqrt(extract(posterior_variance, t, x.shape)) * torch.randn_like(x)


model.eval()
img = torch.randn(2, 1, 8, 8)
for i in reversed(range(0, T, 10)):
    img = p_sample(img, torch.full((2,), i, dtype=torch.long), i)
print(img.shape, round(img.mean().item(), 4), round(img.std().item(), 4), img[0, 0, 0, :3])
print(SinusoidalPositionEmbeddings(6)(torch.tensor([0., 1.5, 10.])))
print(alphas_cumprod.gather(0, torch.tensor([3, 0, 7])), extract(betas, torch.tensor([1, 2]), (2, 3, 4, 4)).shape)
with torch.random.fork_rng():
    torch.manual_seed(123)
    forked = torch.rand(2)
print(forked, torch.rand(2))
with torch.random.fork_rng(enabled=False):
    print(torch.randint(0, 10, (3,)))


# mixture of experts
class Expert(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.w1 = nn.Linear(d, h, bias=False)
        self.w2 = nn.Linear(h, d, bias=False)
        self.w3 = nn.Linear(d, h, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoE(nn.Module):
    def __init__(self, d=8, h=16, n_experts=4, top_k=2):
        super().__init__()
        self.gate = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList([Expert(d, h) for _ in range(n_experts)])
        self.top_k = top_k
        self.n = n_experts

    def forward(self, x):
        B, L, D = x.shape
        x = x.view(-1, D)
        logits = self.gate(x)
        probs = F.softmax(logits, dim=-1, dtype=torch.float)
        weights, selected = torch.topk(probs, self.top_k, dim=-1)
        weights /= weights.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(x)
        expert_mask = F.one_hot(selected, num_classes=self.n).permute(2, 1, 0)
        for e in range(self.n):
            idx, top_x = torch.where(expert_mask[e])
            if top_x.numel() == 0:
                continue
            y = self.experts[e](x[None, top_x].reshape(-1, D)) * weights[top_x, idx, None]
            out.index_add_(0, top_x, y.to(x.dtype))
        density = F.one_hot(selected[:, 0], self.n).float().mean(0)
        aux = (density * probs.mean(0)).sum() * self.n
        z = torch.logsumexp(logits, dim=-1).pow(2).mean()
        return out.view(B, L, D), aux, z, selected


moe = MoE()
x = torch.randn(2, 5, 8)
mopt = torch.optim.AdamW(moe.parameters(), lr=1e-2)
for step in range(3):
    y, aux, z, sel = moe(x)
    loss = y.pow(2).mean() + 0.01 * aux + 1e-3 * z
    mopt.zero_grad()
    loss.backward()
    mopt.step()
    print('moe', step, f'{loss.item():.6f}', f'{aux.item():.5f}', f'{z.item():.5f}')
print(sel.tolist())
a = torch.tensor([[0.1, 0.5, 0.4], [0.7, 0.2, 0.1]])
print(torch.nonzero(a > 0.3), (a > 0.3).nonzero(as_tuple=False).shape, torch.nonzero(a > 0.3, as_tuple=False).tolist())
print(torch.nonzero(a > 0.3, as_tuple=True), (a > 0.3).nonzero(as_tuple=True)[1], torch.nonzero(torch.tensor(5)))
top1 = torch.tensor([2, 0, 2, 1, 2])
tokens = torch.arange(10.).view(5, 2)
print(torch.zeros(3, 2).scatter_add_(0, top1[:, None].expand(-1, 2), tokens), torch.bincount(top1, minlength=4))
pos = torch.cumsum(F.one_hot(top1, 3), dim=0) * F.one_hot(top1, 3) - 1
print(pos.max(dim=-1).values, ((pos < 2) & (pos >= 0)).any(-1).nonzero().squeeze(-1))


# a straight-through estimator whose unused output gets no zeros
class RoundST(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.round(), x.frac()

    @staticmethod
    def backward(ctx, g_round, g_frac):
        print('grads None:', g_round is None, g_frac is None)
        return g_round if g_frac is None else g_round + g_frac


w = torch.tensor([0.4, 1.6], requires_grad=True)
r, f = RoundST.apply(w)
(r * 3).sum().backward()
print(w.grad)


class Registry:
    def __class_getitem__(cls, key):
        return cls.__name__ + '[' + str(key) + ']'


class Key:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, Key) and other.v == self.v


print(Registry[int], Registry['moe', 2], Key.__hash__ is None, Key(1) == Key(1))
try:
    hash(Key(1))
except TypeError as e:
    print('TypeError:', e)
meta = types.MappingProxyType({'experts': 4, 'top_k': 2})
print(meta, repr(meta), meta['top_k'], len(meta), sorted(meta), meta.get('x', 0), 'experts' in meta)
try:
    meta['experts'] = 8
except TypeError as e:
    print('TypeError:', e)


# padded batches: a query row with every key masked out attends to nothing
qa = torch.randn(2, 2, 3, 4, requires_grad=True)
ka = torch.randn(2, 2, 3, 4, requires_grad=True)
pad = torch.tensor([[True, True, False], [False, False, False]])[:, None, None, :]
att = F.scaled_dot_product_attention(qa, ka, ka, attn_mask=pad)
print(att[1, 0].detach(), att[0, 1, 2].detach())
att.sum().backward()
print(qa.grad[1, 0].abs().sum().item(), qa.grad[0, 0, 0])
fm = torch.zeros(3, 3)
fm[1] = float('-inf')
print(F.scaled_dot_product_attention(qa.detach(), ka.detach(), ka.detach(), attn_mask=fm)[0, 0])
# nn.MultiheadAttention: scaled_dot_product_attention's zeros, except on PyTorch's
# eval-mode no-grad fast path, whose softmax leaves NaN there
mha = nn.MultiheadAttention(4, 2, batch_first=True)
xs = torch.randn(2, 3, 4)
kpm = torch.tensor([[True, True, True], [False, False, True]])
for train, grad in ((True, True), (False, False)):
    mha.train(train)
    with torch.set_grad_enabled(grad):
        o, w = mha(xs, xs, xs, key_padding_mask=kpm, need_weights=False)
    print('mha', train, grad, o[0, 0].tolist(), [round(v, 4) for v in o[1, 0].tolist()], w)


# the PyTorch 2 form of a custom Function: forward without ctx, then setup_context
class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


zs = torch.tensor([1., -2.], requires_grad=True)
Square.apply(zs).sum().backward()
print(zs.grad)
