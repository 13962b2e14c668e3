# mm's gradient for an input that is a transposed dense matrix (W.t(), as in
# linear) is computed in that input's layout, as PyTorch does, so W.grad comes
# out dense without a transposing copy. Values and every stride a script can
# see must still match PyTorch's. Run hot, so the JIT captures the backward.
import torch

torch.manual_seed(0)
W = torch.randn(5, 3, requires_grad=True)
A = torch.randn(3, 4, requires_grad=True)
x = torch.randn(2, 3, requires_grad=True)
for step in range(4):
    W.grad = None
    x.grad = None
    Wt = W.t()
    Wt.retain_grad()
    y = torch.mm(x, Wt)
    (y * y).sum().backward()
    print(step, Wt.grad.stride(), W.grad.stride(), W.grad.is_contiguous())
    print(W.grad)
    print(x.grad)

# The first operand transposed: its gradient is transposed too.
for step in range(4):
    A.grad = None
    At = A.t()
    At.retain_grad()
    z = torch.mm(At, torch.ones(3, 2))
    (z * torch.arange(8.0).reshape(4, 2)).sum().backward()
    print(step, At.grad.stride(), A.grad.stride())
    print(A.grad)

# Contractions of length 1 (outer products, a batch-1 weight gradient): plain,
# with a strided right operand, batched, and with inf/nan propagating.
u = torch.arange(4.0).reshape(4, 1) - 1.5
v = torch.tensor([[2.0, -0.5, float("inf")]])
print(torch.mm(u, v))
print(torch.mm(u, torch.arange(6.0).reshape(3, 2).t()[:1]))
print(torch.bmm(torch.ones(2, 3, 1), torch.arange(8.0).reshape(2, 1, 4)))
print(torch.mm(u.double(), v.double() * 0.1))
