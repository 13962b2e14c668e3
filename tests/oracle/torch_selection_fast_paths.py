# The eager fast paths for selections and counts: topk/kthvalue/median by
# partial selection (NaN ranked highest; ties: tests/oracle/torch_order_ties.py),
# unique by a range table or a sort (exact int64 beyond 2**53), nonzero and
# bincount read through their dtype, prod over rows in lanes, true division.
import torch

torch.manual_seed(3)
ties = torch.tensor([[3., 1., 3., 2., 1., 3., 0., 2.],
                     [5., 5., 5., 5., 5., 5., 5., 5.],
                     [1., float('nan'), 0., float('nan'), 2., -1., 0., 4.]])
for largest in (True, False):
    v, i = ties.topk(3, 1, largest=largest)
    print("topk", largest, v.tolist(), torch.equal(ties.gather(1, i).nan_to_num(), v.nan_to_num()))
    v, i = ties.t().topk(2, 0, largest=largest)
    print("topk dim0", largest, v.tolist())
for k in (1, 2, 4, 8):
    v, i = ties.kthvalue(k, 1)
    print("kthvalue", k, v.tolist(), i[0].item() if k == 1 else "")
v, i = ties.median(1)
print("median", v.tolist(), i.tolist())
v, i = ties[:, :7].median(1, keepdim=True)
print("median odd", v.tolist(), i.tolist())
r = torch.randn(64, 300)
v, i = r.topk(7, 1)
s, j = r.sort(1, descending=True)
print("topk matches sort", torch.equal(v, s[:, :7]), torch.equal(i, j[:, :7]))
print("kthvalue matches sort", torch.equal(r.kthvalue(40, 1).values, r.sort(1).values[:, 39]))
print("median matches sort", torch.equal(r.median(1).values, r.sort(1).values[:, 149]))
ri = torch.randint(0, 5, (16, 33))
v, i = ri.topk(4, 1)
print("int topk", v[:3].tolist())
rr = torch.randperm(50).view(5, 10)
v, i = rr.topk(3, 1, largest=False)
print("int topk distinct", v.tolist(), i.tolist(), rr.kthvalue(4, 1)[1].tolist())
print("int median", ri.median(1)[0].tolist(), ri.median(1)[1].tolist())

big = torch.tensor([2**53 + 1, 2**53, 2**53 + 1, -2**62, 7], dtype=torch.int64)
print("unique big", big.unique().tolist())
u, inv, cnt = torch.unique(big, return_inverse=True, return_counts=True)
print(inv.tolist(), cnt.tolist())
lab = torch.randint(-3, 40, (1000,))
u, inv, cnt = lab.unique(return_inverse=True, return_counts=True)
print("labels", u.tolist()[:10], cnt.sum().item(), torch.equal(u[inv], lab))
f = torch.tensor([0.5, -0.0, 0.0, 2.5, 0.5, -1.0])
print("float unique", f.unique().tolist(), f.unique(return_counts=True)[1].tolist())
print("uint8 unique", torch.tensor([200, 3, 200, 0], dtype=torch.uint8).unique().tolist())
print("bool unique", torch.tensor([True, False, True]).unique().tolist())
print("half unique", torch.tensor([1.5, 0.25, 1.5], dtype=torch.float16).unique().tolist())

print("nonzero 1d", torch.tensor([0., 1., float('nan'), -0.0, 3.]).nonzero().tolist())
x3 = torch.zeros(2, 3, 4)
x3[0, 1, 2] = 1; x3[1, 2, 3] = -2; x3[1, 0, 0] = 5
print("nonzero 3d", x3.nonzero().tolist(), x3.t().nonzero().tolist() if x3.dim() == 2 else x3.transpose(0, 2).nonzero().tolist())
print("nonzero 0d", torch.tensor(3.0).nonzero().shape, torch.tensor(0).nonzero().shape)
print("nonzero half", torch.tensor([0, 1, 0, 2], dtype=torch.float16).nonzero().flatten().tolist())
print("argwhere", torch.argwhere(torch.tensor([[0, 1], [1, 0]])).tolist())
m = torch.tensor([True, False, True, True])
print("masked_select", torch.tensor([1., 2., 3., 4.]).masked_select(m).tolist())

ids = torch.tensor([0, 3, 3, 1, 9, 3], dtype=torch.int32)
print("bincount", ids.bincount().tolist(), ids.bincount(minlength=12).tolist())
print("bincount w", ids.bincount(torch.tensor([0.5, 1., 2., 3., 4., 0.25])).tolist())
print("bincount int w", ids.bincount(torch.tensor([1, 2, 3, 4, 5, 6])).tolist(),
      ids.bincount(torch.tensor([1, 2, 3, 4, 5, 6])).dtype)
print("bincount strided", torch.tensor([[1, 2], [2, 0], [2, 5]])[:, 0].bincount().tolist())
print("bincount empty", torch.tensor([], dtype=torch.int64).bincount().tolist(),
      torch.tensor([], dtype=torch.int64).bincount(minlength=3).tolist())
try:
    torch.tensor([1, -1]).bincount()
except RuntimeError as e:
    print("RuntimeError", e)

p = torch.rand(5, 100) + 0.5
print("prod rows", [round(v, 3) for v in (p.prod(1) / p.double().prod(1).float()).tolist()])
print("prod int", torch.arange(1, 21).view(2, 10).prod(1).tolist(), torch.arange(1, 41).prod().item())
print("prod zeros", torch.tensor([[1., 0., float('inf')], [2., 3., 4.]]).prod(1).tolist())
a = torch.randn(1000)
b = torch.randn(1000)
print("div", torch.equal(a / b, torch.div(a, b)), (a / b)[:4].tolist() == [x / y for x, y in zip(a[:4].tolist(), b[:4].tolist())] or "close")
print("div modes", torch.div(torch.tensor([7., -7.]), 2, rounding_mode="floor").tolist(),
      torch.div(torch.tensor([7, -7]), 2, rounding_mode="trunc").tolist(), (torch.tensor([7, -7]) / 2).tolist())
print("div zero", (torch.tensor([1., -1., 0.]) / 0.0).tolist())
