# Aliases and small composites (concat, ravel, hsplit/vsplit/dsplit, inner, vdot,
# fmax/fmin, positive, argwhere, result_type, unique(dim=)), in-place index writes
# (index_add_, index_copy_, scatter_add_, tril_, triu_), and nn's RMSNorm,
# Softmax2d, gumbel_softmax, MultiLabelSoftMarginLoss and fixed-mode upsampling.
import torch
import torch.nn as nn
import torch.nn.functional as F

a = torch.arange(6.).view(2, 3)
print(torch.concat([a, a]), torch.concatenate([a, a], dim=1).shape, torch.ravel(a.t()), a.ravel().shape)
print(torch.hsplit(a, 3)[1], torch.vsplit(a, [1])[1], torch.hsplit(torch.arange(4), 2))
print(torch.dsplit(torch.arange(8.).view(1, 2, 4), [1, 3])[1].shape)
try:
    torch.hsplit(a, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.inner(a, a), torch.inner(torch.arange(3.), torch.ones(3)), torch.inner(a, torch.tensor(2.0)))
print(torch.vdot(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
nan = float('nan')
x = torch.tensor([1.0, nan, 3.0, nan])
y = torch.tensor([2.0, 0.5, nan, nan])
print(torch.fmax(x, y), torch.fmin(x, y), torch.fmax(torch.tensor([1, 5]), torch.tensor([3, 2])))
print(torch.positive(a)[0], torch.argwhere(torch.tensor([[0, 1], [2, 0]])))
print(torch.result_type(torch.tensor([1, 2]), 1.0), torch.result_type(torch.tensor([1.0]), torch.tensor([1], dtype=torch.float64)),
      torch.result_type(torch.tensor(1, dtype=torch.int32), 5), torch.result_type(torch.tensor([True]), True))

# In-place index writes
t = torch.zeros(3, 4)
t.index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 4), alpha=2)
print(t)
t.index_copy_(1, torch.tensor([3, 0]), torch.full((3, 2), 7.0))
print(t)
s = torch.zeros(2, 5)
print(s.scatter_add_(1, torch.tensor([[0, 1, 1], [4, 4, 0]]), torch.tensor([[1., 2., 3.], [4., 5., 6.]])))
m = torch.ones(3, 3)
print(m.tril_(), torch.ones(3, 3).triu_(1))
w = torch.ones(3, requires_grad=True)
out = torch.zeros(5).index_add_(0, torch.tensor([1, 1, 4]), w * 3)
out.sum().backward()
print(out.detach(), w.grad)

# RMSNorm
torch.manual_seed(0)
x = torch.randn(2, 3, 4)
rms = nn.RMSNorm(4)
print(rms, nn.RMSNorm([3, 4], eps=1e-5, elementwise_affine=False))
print(rms(x)[0].detach())
print(F.rms_norm(x, (3, 4), eps=1e-6)[1, 0], F.rms_norm(x.double(), [4])[0, 0].cpu())  # cpu(): no device suffix to wrap
rms.weight.data.mul_(2.0)
y = rms(x)
y.pow(2).sum().backward()
print(rms.weight.grad)

print(nn.Softmax2d()(torch.randn(1, 3, 2, 2))[0, :, 0, 0])
torch.manual_seed(1)
logits = torch.randn(2, 5)
print(F.gumbel_softmax(logits, tau=0.5).cpu(), F.gumbel_softmax(logits, hard=True))
target = torch.tensor([[1., 0., 1., 0., 0.], [0., 1., 1., 0., 1.]])
print(nn.MultiLabelSoftMarginLoss()(logits, target), F.multilabel_soft_margin_loss(logits, target, reduction='none'),
      F.multilabel_soft_margin_loss(logits, target, weight=torch.arange(5.), reduction='sum'))
img = torch.arange(4.).view(1, 1, 2, 2)
print(nn.UpsamplingNearest2d(scale_factor=2)(img)[0, 0], nn.UpsamplingBilinear2d(size=(3, 3))(img)[0, 0])
print(nn.UpsamplingBilinear2d(scale_factor=2))

# unique along a dim: distinct slices in lexicographic order
a = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
print(torch.unique(a, dim=0), torch.unique(a, dim=1))
print(torch.unique(a, dim=0, return_inverse=True, return_counts=True))
print(a.unique(dim=0, return_counts=True), a.float().unique(dim=-1))
b = torch.tensor([[[1., 0.], [1., 0.]], [[2., 5.], [1., 0.]], [[1., 0.], [1., 0.]]])
print(torch.unique(b, dim=0), torch.unique(b, dim=1, return_inverse=True), torch.unique(b, dim=2))

# torch.Size stays a torch.Size through + and *
print(torch.Size([2]) + (3,), (3,) + torch.Size([2]), torch.Size([2]) * 2, torch.zeros(1, 2).shape + torch.Size([5]))
print((1, 2) + (3,), a.shape[:1] + (7,))
