# Ops returning several tensors give PyTorch's named tuples: the type
# torch.return_types.<op>, field access, indexing, unpacking and the repr.
import torch

t = torch.tensor([[3., 1., 2.], [0., 5., 4.]])
r = torch.max(t, 0)
print(type(r).__name__, type(r).__module__, isinstance(r, tuple), len(r))
print(type(r), type(torch.linalg.slogdet(torch.eye(2))))
print(r)
v, i = r
print(v.tolist(), i.tolist(), r[0].tolist(), r[-1].tolist(), r.values.tolist(), r.indices.tolist())
print([x.tolist() for x in r], tuple(r)[1].tolist(), r[:1][0].tolist())
results = {
    'min': torch.min(t, 1),
    'max_kw': t.max(dim=1, keepdim=True),
    'sort': torch.sort(t, descending=True),
    'topk': torch.topk(t, 2),
    'kthvalue': torch.kthvalue(t, 2),
    'mode': torch.mode(torch.tensor([1, 2, 2, 3])),
    'median': torch.median(t, 0),
    'nanmedian': t.nanmedian(1),
    'cummax': torch.cummax(t, 1),
    'cummin': torch.cummin(t, 1),
    'slogdet': torch.linalg.slogdet(torch.eye(3) * 2),
    'aminmax': torch.aminmax(t),
}
for name, res in results.items():
    print(name, type(res).__name__, [f for f in ('values', 'indices', 'sign', 'logabsdet', 'min', 'max')
                                     if hasattr(res, f)])
print(results['cummax'])
print(results['slogdet'])
print(results['aminmax'].min.item(), results['aminmax'].max.item())
print(type(torch.sort(t)) is type(t.sort()), type(torch.sort(t)) is type(torch.topk(t, 1)))
s = t.sort(dim=0)
print(s.values[0].tolist(), s.indices[:, 0].tolist())
vals, idx = t.topk(1, largest=False)
print(vals.flatten().tolist(), idx.flatten().tolist())
