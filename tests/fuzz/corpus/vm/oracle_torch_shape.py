# Shape ops: view/reshape/transpose/permute/unsqueeze/squeeze/flatten/expand/contiguous, strides.
import torch
x = torch.arange(24.0).reshape(2, 3, 4)
print(x.shape, x.stride(), x.is_contiguous(), x.dim(), x.ndim, x.numel())
v = x.view(6, 4)
print(v.shape, v.stride(), x.view(-1).shape, x.view(2, -1).shape, x.reshape(4, 6)[1].tolist())
t = x.transpose(0, 2)
print(t.shape, t.stride(), t.is_contiguous(), t.contiguous().is_contiguous(), t.contiguous().stride())
print(x.permute(2, 0, 1).shape, x.permute(2, 0, 1).stride(), x.permute([1, 0, 2])[0, 1].tolist())
m = torch.arange(6).reshape(2, 3)
print(m.t().tolist(), m.T.tolist(), m.t().shape, torch.t(m).stride(), m.T.shape)
print(m.unsqueeze(0).shape, m.unsqueeze(-1).shape, torch.unsqueeze(m, 1).shape, m[None].shape)
s = torch.zeros(1, 3, 1, 2)
print(s.squeeze().shape, s.squeeze(0).shape, s.squeeze(2).shape, s.squeeze(1).shape, torch.squeeze(s, -2).shape)
print(x.flatten().shape, x.flatten(1).shape, torch.flatten(x, 0, 1).shape, x.flatten(-2, -1).shape)
e = torch.tensor([[1.0], [2.0]]).expand(2, 3)
print(e.tolist(), e.stride(), e.shape, torch.tensor([5.0]).expand(2, -1).tolist(), e.is_contiguous())
print(x.reshape(3, 8).shape, x.transpose(1, 2).reshape(2, 12)[0].tolist())
print(torch.reshape(m, (3, 2)).tolist(), m.reshape(-1).tolist(), m.view(3, 2).tolist(), m.size(1), m.size())
try:
    x.transpose(0, 1).view(-1)
except RuntimeError as err:
    print(type(err).__name__)
try:
    x.view(5, 5)
except RuntimeError as err:
    print(type(err).__name__)
print(x.transpose(-1, -2).shape, x.transpose(0, 1).shape)
q = torch.arange(8).reshape(2, 2, 2)
print(q.permute(2, 1, 0).flatten().tolist(), q.transpose(0, 2).contiguous().view(-1).tolist())
