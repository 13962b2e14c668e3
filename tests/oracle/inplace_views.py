# In-place view ops (t_, transpose_, squeeze_, unsqueeze_, swapdims_, swapaxes_,
# as_strided_) rewrite the tensor they are called on; resize_ reshapes or grows it.
import torch

a = torch.arange(6.).reshape(2, 3)
r = a.t_()
print(a, a.shape, a.stride(), r is a)
a.transpose_(0, 1)
print(a, a.is_contiguous())

q = torch.zeros(2, 1, 3)
q.squeeze_(1)
print(q.shape)
q.unsqueeze_(-1)
print(q.shape)
q.squeeze_()
print(q.shape)
q.swapdims_(0, 1)
print(q.shape, q.stride())
q.swapaxes_(0, 1)
print(q.shape, q.stride())

# A view rewritten in place keeps sharing its base's memory.
x = torch.arange(6.).reshape(2, 3)
v = x[1]
v.unsqueeze_(0)
v.mul_(10)
print(v, x)

w = torch.arange(6.)
w.as_strided_((2, 2), (1, 2), 1)
print(w, w.storage_offset())

# Gradients flow through the rewritten tensor; a leaf that requires grad refuses.
b = torch.ones(2, 3, requires_grad=True)
c = b * torch.arange(6.).reshape(2, 3)
c.t_()
(c * torch.tensor([[1.0, 2.0]])).sum().backward()
print(c.shape, type(c.grad_fn).__name__)
for rewrite in (lambda t: t.squeeze_(), lambda t: t.squeeze_(1), lambda t: t.unsqueeze_(0),
                lambda t: t.swapdims_(0, 2), lambda t: t.as_strided_((3,), (1,))):
    e = torch.ones(2, 1, 3, requires_grad=True) * 2
    rewrite(e)
    print(tuple(e.shape), type(e.grad_fn).__name__)
print(b.grad)
try:
    b.t_()
except RuntimeError as e:
    print("RuntimeError:", e)

# resize_: within the storage, then beyond it (old values kept).
d = torch.arange(4.)
d.resize_(2, 2)
print(d)
d.resize_([3])
print(d)
d.resize_(5)
print(d.shape, d[:4])
try:
    torch.ones(2, requires_grad=True).resize_(1)
except RuntimeError as e:
    print("RuntimeError:", e)

# In a hot loop (compiled regions): each rewrite ends the graph and stays exact.
acc = torch.zeros(3, 2)
for i in range(6):
    m = torch.arange(6.).reshape(2, 3) * i
    m.t_()
    acc = acc + m * 2
print(acc)
