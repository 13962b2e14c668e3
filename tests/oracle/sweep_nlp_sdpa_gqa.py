# F.scaled_dot_product_attention: grouped-query attention (enable_gqa) and
# the error for an explicit mask together with is_causal.
import torch
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
q = torch.randn(2, 4, 5, 8, requires_grad=True)
k = torch.randn(2, 2, 6, 8, requires_grad=True)
v = torch.randn(2, 2, 6, 8, requires_grad=True)
o = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
print(tuple(o.shape), r(o[1, 3, 4, :4]))
ref = F.scaled_dot_product_attention(q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1))
print(torch.allclose(o, ref, atol=1e-6))
o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
print(r(o[0, 1, 0, :4]))
o.sum().backward()
print(round(k.grad.abs().sum().item(), 3), round(v.grad.abs().sum().item(), 3))
q3 = torch.randn(6, 3, 4)
k3 = torch.randn(2, 3, 4)
print(r(F.scaled_dot_product_attention(q3, k3, k3, enable_gqa=True)[5, 2]))
try:
    F.scaled_dot_product_attention(q, torch.randn(2, 3, 6, 8), torch.randn(2, 3, 6, 8), enable_gqa=True)
except RuntimeError as e:
    print("RuntimeError:", e)
mask = torch.ones(5, 6, dtype=torch.bool)
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True, enable_gqa=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.scaled_dot_product_attention(q, k, v.to(torch.bfloat16), enable_gqa=True)
except RuntimeError as e:
    print("RuntimeError:", e)
