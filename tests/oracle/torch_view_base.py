# Tensor._base and Tensor._is_view(): which results are views of which tensor.
import torch

x = torch.randn(4, 6)
p = torch.nn.Parameter(torch.randn(2, 2))
cases = [
    ("view", lambda: x.view(24)), ("transpose", lambda: x.t()), ("slice", lambda: x[1:]),
    ("view of a view", lambda: x[1:].t()[0]), ("reshape as view", lambda: x.reshape(24)),
    ("reshape as copy", lambda: x.t().reshape(24)), ("detach", lambda: x.detach()),
    ("contiguous no-op", lambda: x.contiguous()), ("clone", lambda: x.clone()), ("select", lambda: x[0]),
    ("unsqueeze", lambda: x.unsqueeze(0)), ("expand", lambda: x[0:1].expand(3, 6)),
    ("split", lambda: x.split(2)[0]), ("unbind", lambda: x.unbind()[0]), ("diagonal", lambda: x.diagonal()),
    ("narrow", lambda: x.narrow(0, 1, 2)), ("flatten", lambda: x.flatten()),
    ("squeeze", lambda: x.unsqueeze(0).squeeze(0)), ("advanced index", lambda: x[[0, 1]]),
    ("mask", lambda: x[x > 0]), ("as_strided", lambda: x.as_strided((2, 2), (1, 1))),
    ("view_as", lambda: x.view_as(x)), ("chunk", lambda: x.chunk(2)[1]), ("permute", lambda: x.permute(1, 0)),
    ("movedim", lambda: x.movedim(0, 1)), (".data", lambda: x.data), ("arithmetic", lambda: x + 1),
]
for name, fn in cases:
    v = fn()
    print(name, v._is_view(), v._base is x, v._base is None)
t = p.t()
print(t._base is p, t._is_view(), p._base is None)
# In place through a view: the base sees the write.
y = torch.zeros(3, 3)
d = y.diagonal()
d += 1
print(d._base is y, y)
# reshape copies when it cannot view: PyTorch's node for that is UnsafeViewBackward0.
w = torch.randn(4, 6, requires_grad=True)
print(type(w.t().reshape(24).grad_fn).__name__, type(w.reshape(24).grad_fn).__name__,
      type(w.t().flatten().grad_fn).__name__, type(w[[0, 2]].grad_fn).__name__)
