# nn.MultiheadAttention with add_bias_kv and add_zero_attn: the extra key and
# value columns, masks padded for them, both the weights path and the SDPA path.
import torch
import torch.nn as nn


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True)
print(mha)
for name, p in mha.named_parameters():
    print(name, tuple(p.shape))
print(r(mha.bias_k[0, 0, :4]))
x = torch.randn(3, 2, 8)
kpm = torch.tensor([[False, False, True], [False, False, False]])
out, w = mha(x, x, x, key_padding_mask=kpm)
print(tuple(out.shape), tuple(w.shape))
print(r(w[0, 0]))
print(r(out[0, 0, :4]))
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
out, w = mha(x, x, x, attn_mask=causal, average_attn_weights=False)
print(tuple(w.shape), r(w[1, 0, 0]))
out2, none = mha(x, x, x, attn_mask=causal, need_weights=False)
print(none, torch.allclose(out, out2, atol=1e-6))
out2.pow(2).sum().backward()
print(round(mha.bias_k.grad.abs().sum().item(), 4), round(mha.bias_v.grad.abs().sum().item(), 4))

only_bias = nn.MultiheadAttention(6, 3, add_bias_kv=True, batch_first=True, kdim=4, vdim=5)
q = torch.randn(2, 3, 6)
k = torch.randn(2, 4, 4)
v = torch.randn(2, 4, 5)
out, w = only_bias(q, k, v)
print(tuple(w.shape), r(w[1, 2]))
only_zero = nn.MultiheadAttention(6, 3, add_zero_attn=True, batch_first=True)
print(only_zero.bias_k, [n for n, _ in only_zero.named_parameters()])
out, w = only_zero(q, q, q)
print(tuple(w.shape), r(w[0, 0]))
try:
    only_zero(q, q, q, attn_mask=torch.zeros(4, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
