# LLaMA-style rotary embeddings with complex tensors inside a small attention
# module: forward, backward and one SGD step.
import torch
import torch.nn as nn
import torch.nn.functional as F


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x, freqs_cis):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
        xq, xk, xv = xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2)
        scores = torch.matmul(xq, xk.transpose(2, 3)) / (self.head_dim ** 0.5)
        mask = torch.full((seqlen, seqlen), float('-inf')).triu(1)
        scores = F.softmax((scores + mask).float(), dim=-1).type_as(xq)
        out = torch.matmul(scores, xv).transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(out)


torch.manual_seed(0)
dim, n_heads, seqlen = 16, 2, 6
freqs_cis_all = precompute_freqs_cis(dim // n_heads, seqlen * 2)
print(freqs_cis_all.shape, freqs_cis_all.dtype)
print(freqs_cis_all[:2, :3])
print([round(v, 4) for v in freqs_cis_all[5].real.tolist()])
print([round(v, 4) for v in freqs_cis_all[5].imag.tolist()])
freqs_cis = freqs_cis_all[:seqlen]

attn = Attention(dim, n_heads)
opt = torch.optim.SGD(attn.parameters(), lr=0.1)
x = torch.randn(2, seqlen, dim, requires_grad=True)
for step in range(2):
    opt.zero_grad()
    y = attn(x, freqs_cis)
    loss = y.pow(2).mean()
    loss.backward()
    print('step', step, round(loss.item(), 5))
    opt.step()
print([round(v, 4) for v in attn.wq.weight.grad[0, :6].tolist()])
print([round(v, 4) for v in attn.wk.weight.grad[3, :6].tolist()])
print([round(v, 4) for v in x.grad[1, 2, :6].tolist()])

# the example's shapes step by step
xq = torch.randn(1, seqlen, n_heads, dim // n_heads, requires_grad=True)
xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
fc = freqs_cis[:seqlen].view(1, seqlen, 1, dim // n_heads // 2)
out = torch.view_as_real(xq_ * fc).flatten(3).type_as(xq)
print(xq_.shape, fc.shape, out.shape, out.dtype)
out.sum().backward()
print([round(v, 4) for v in xq.grad[0, 3, 1].tolist()])
# rotation keeps norms
print(round((out.norm() - xq.norm()).abs().item(), 4))
