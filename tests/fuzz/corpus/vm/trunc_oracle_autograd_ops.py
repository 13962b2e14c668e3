# Gradients through the nn-style ops: matmul, softmax, log_softmax, layer_norm, cross_entropy,
# embedding, gather, indexing, cat/stack, reductions, masked_fill, gelu.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
def r(t, n=5):
    return [round(v, n) for v in t.flatten().tolist()]
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(4, 5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
out = F.log_softmax(x @ w + b, dim=1)
loss = -out[:, 2].mean()
loss.backward()
print(round(loss.item(), 5), r(x.grad), r(w.grad), r(b.grad))
for t in (x, w, b):
    t.grad = None
loss = F.cross_entropy(F.gelu(x @ w) + b, torch.tensor([0, 4, 1]))
loss.backward()
print(round(loss.item(), 5), r(x.grad), r(b.grad))
g = torch.ones(5, requires_grad=True)
beta = torch.zeros(5, requires_grad=True)
h = torch.randn(2, 5, requires_grad=True)
ln = F.layer_norm(h, [5], g, 