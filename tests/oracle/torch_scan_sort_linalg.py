# Scans, sorting, rearranging helpers, einsum and norms as a user writes
# them: torch.X and Tensor.X forms, keyword arguments, named-tuple results,
# gradients, and helper functions called often enough to be compiled.
import torch


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
x = torch.arange(12.0).reshape(3, 4)

print("flip", r(torch.flip(x, [0])), r(x.flip(0, 1)))
print("roll", r(torch.roll(x, 1)), r(x.roll(shifts=(1, -1), dims=(0, 1))))
print("movedim", tuple(torch.movedim(x.reshape(3, 2, 2), 0, -1).shape), tuple(x.moveaxis(0, 1).shape))
print("swap", r(x.swapaxes(0, 1)), tuple(torch.swapdims(x, 0, 1).shape))
print("unflatten", tuple(x.unflatten(1, (2, 2)).shape), tuple(torch.unflatten(x, -1, (2, -1)).shape))
print("stacks", r(torch.hstack([x, x])), r(torch.vstack((x[0], x[1]))))
print("tile", r(torch.tile(torch.tensor([1.0, 2.0]), (2, 2))))
print("repeat_interleave", r(x[0].repeat_interleave(2)), r(torch.repeat_interleave(x, 2, dim=0)))
print("repeat_interleave_t", r(torch.repeat_interleave(x, torch.tensor([1, 0, 2]), dim=0)), r(x[0].repeat_interleave(torch.tensor(2))))
print("cumsum", r(x.cumsum(1)), r(torch.cumsum(x, dim=-2)), x.int().cumsum(0).dtype)
print("cumprod", r(torch.cumprod(x[:, :3] + 1, 1)))

v = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
s = torch.sort(v, descending=True)
print("sort", r(s.values), s.indices.tolist())
vals, idx = v.sort(dim=0)
print("sort0", r(vals), idx.tolist())
print("argsort", v.argsort().tolist(), torch.argsort(v, dim=0, descending=True).tolist())
t = torch.topk(v, 2)
print("topk", r(t.values), t.indices.tolist(), r(v.topk(1, dim=0, largest=False)[0]))
print("kthvalue", r(torch.kthvalue(v, 2).values), v.kthvalue(1, 0).indices.tolist())
print("median", round(v.median().item(), 4), r(torch.median(v, 1).values), torch.median(v, dim=1).indices.tolist())

m = torch.arange(9.0).reshape(3, 3)
print("diag", r(torch.diag(m)), r(torch.diag(torch.tensor([1.0, 2.0]), 1)), r(m.diagonal(1)))
print("trace", m.trace().item(), r(torch.outer(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
print("addmm", r(torch.addmm(torch.ones(3), m, m, beta=0.5, alpha=2.0)))
b = torch.randn(2, 3, 4)
c = torch.randn(2, 4, 5)
print("baddbmm", r(torch.baddbmm(torch.zeros(2, 3, 5), b, c, alpha=0.5)))
print("einsum", r(torch.einsum("bij,bjk->bik", b, c)), r(torch.einsum("ij->ji", m)))
print("einsum2", round(torch.einsum("i,i->", m[0], m[1]).item(), 4), r(torch.einsum("ii", m).reshape(1)))
print("einsum3", r(torch.einsum("...ij,...j->...i", b, torch.ones(4))))

print("norm", round(torch.norm(x).item(), 4), r(x.norm(dim=1)), r(x.norm(p=1, dim=0)), round(x.norm(float("inf")).item(), 4))
print("linalg", r(torch.linalg.vector_norm(x, ord=3, dim=1)), round(torch.linalg.matrix_norm(x).item(), 4),
      round(torch.linalg.norm(x, 1).item(), 4), round(torch.linalg.norm(x[0]).item(), 4))

print("diff", r(torch.diff(x)), r(x.diff(n=2, dim=0)), r(torch.diff(x[0], prepend=torch.tensor([-1.0]))))
print("count_nonzero", torch.count_nonzero(x).item(), torch.count_nonzero(x - 5, dim=1).tolist())
print("masked_select", r(torch.masked_select(x, x > 6)), r(x.masked_select(torch.tensor([True, False, True, False]))))
seq = torch.tensor([1.0, 3.0, 5.0, 7.0, 9.0])
print("searchsorted", torch.searchsorted(seq, torch.tensor([3.0, 6.0, 9.0])).tolist(),
      torch.searchsorted(seq, torch.tensor([[3.0], [10.0]]), right=True).tolist(),
      torch.bucketize(torch.tensor([0.0, 5.0, 8.0]), seq).tolist())
print("bincount", torch.bincount(torch.tensor([1, 3, 1, 0])).tolist(),
      r(torch.tensor([2, 0, 2]).bincount(weights=torch.tensor([0.5, 1.0, 2.0]), minlength=4)))
rows, cols = torch.nonzero(x > 8, as_tuple=True)
print("nonzero", rows.tolist(), cols.tolist())
u = torch.tensor([3, 1, 3, 2, 1, 3])
vals, inv, cnt = torch.unique(u, return_inverse=True, return_counts=True)
print("unique", torch.unique(u).tolist(), vals.tolist(), inv.tolist(), cnt.tolist(), r(torch.tensor([2.5, 0.5, 2.5]).unique()))

w = torch.randn(3, 4, requires_grad=True)
loss = (w.cumsum(1) * torch.arange(4.0)).sum() + w.norm() + w.sort(1).values[:, 0].sum() + torch.einsum("ij,ij->", w, w)
loss.backward()
print("grad", r(w.grad))
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print("zero norm grad", r(z.grad))


def step(a, q, k):
    scores = torch.einsum("bqd,bkd->bqk", q, k) / 2.0
    top = scores.topk(2, dim=-1).values.sum()
    rolled = torch.roll(a, 1, 0).flip(0)
    big = a.masked_select(a > 4 + i) + torch.bincount((a > 6).flatten().long()).sum()
    return r(scores), round(top.item(), 4), r(rolled.cumsum(0)), round(torch.diag(a).norm().item(), 4), r(big)


for i in range(4):
    q = torch.randn(1, 2, 3)
    k = torch.randn(1, 3, 3)
    print("step", i, step(m + i, q, k), (q > 0).int().unique(return_counts=True)[1].tolist())
