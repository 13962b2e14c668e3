# A LLaMA-style block (RMSNorm with extra_repr, rotary embeddings, SwiGLU,
# grouped-query SDPA), forward hooks that store into a dict through
# dict.__setitem__, and the parameter-vector utilities.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(23)
class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight
    def extra_repr(self):
        return f"dim={self.weight.shape[0]}, eps={self.eps}"
def rope(x, base=10000):
    T, D = x.shape[-2], x.shape[-1]
    inv = 1.0 / (base ** (torch.arange(0, D, 2).float() / D))
    t = torch.arange(T).float()
    freqs = torch.outer(t, inv)
    cos, sin = freqs.cos(), freqs.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
    return out.flatten(-2)
class SwiGLU(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.w1 = nn.Linear(d, h, bias=False); self.w2 = nn.Linear(h, d, bias=False); self.w3 = nn.Linear(d, h, bias=False)
    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
class Block(nn.Module):
    def __init__(self, d=8, nh=2, nkv=1):
        super().__init__()
        self.nh, self.nkv, self.hd = nh, nkv, d // nh
        self.norm1 = RMSNorm(d); self.norm2 = RMSNorm(d)
        self.wq = nn.Linear(d, d, bias=False); self.wk = nn.Linear(d, nkv * self.hd, bias=False); self.wv = nn.Linear(d, nkv * self.hd, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.ff = SwiGLU(d, 16)
    def forward(self, x):
        B, T, C = x.shape
        h = self.norm1(x)
        q = self.wq(h).view(B, T, self.nh, self.hd).transpose(1, 2)
        k = self.wk(h).view(B, T, self.nkv, self.hd).transpose(1, 2)
        v = self.wv(h).view(B, T, self.nkv, self.hd).transpose(1, 2)
        q, k = rope(q), rope(k)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.wo(a.transpose(1, 2).reshape(B, T, C))
        return x + self.ff(self.norm2(x))
blk = Block()
print(blk)
x = torch.randn(2, 5, 8)
y = blk(x)
print([round(v, 4) for v in y[1, 4].tolist()])
acts = {}
h = blk.ff.register_forward_hook(lambda m, i, o: acts.__setitem__('ff', o.detach()))
blk(x); h.remove()
print(acts['ff'].shape)
pre = blk.wq.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
print(round(blk(x).sum().item(), 4)); pre.remove()
y = blk(x)
y.square().mean().backward()
tn = nn.utils.clip_grad_norm_(blk.parameters(), max_norm=0.1, error_if_nonfinite=True, foreach=True)
print(round(tn.item(), 5), round(nn.utils.parameters_to_vector(p.grad for p in blk.parameters()).norm().item(), 5))
vec = nn.utils.parameters_to_vector(blk.parameters())
print(vec.shape)
nn.utils.vector_to_parameters(vec * 0 + 1, blk.parameters())
print(blk.wo.weight[0, :3].tolist())
cm = torch.compile(blk)
print(round(cm(x).mean().item(), 3))
print(torch.get_default_dtype(), x.dtype, blk.wq.weight.dtype)
d = {}
setter = d.__setitem__
setter('a', 1)
print(d.__getitem__('a'), d.__contains__('b'), d)
d.__delitem__('a')
print(d)
print([].__class__.__name__, {}.__class__, (1,).__class__, "s".__class__.__name__, (3).__class__, x.__class__)
print(blk.__class__.__name__, blk.ff.__class__.__name__)
