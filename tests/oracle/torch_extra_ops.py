# The combining, indexing and statistics functions: broadcast_to/tensors/shapes, meshgrid,
# logspace, atleast_nd, column/d/row_stack, rot90, block_diag, kron, tensordot, cross,
# cartesian_prod, tri indices, take, take_along_dim, index_fill, scatter, scatter_reduce; std_mean, var_mean,
# aminmax, nansum, nanmean, logcumsumexp, cummax/cummin, cdist, dist, isclose, histc,
# quantile/nanquantile, mode; and gradients through several of them.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)


def r(t, n=4):
    return [round(v, n) for v in t.flatten().tolist()]


def show(name, t):
    print(name, list(t.shape), t.dtype, r(t) if t.is_floating_point() else t.flatten().tolist())


x = torch.arange(6.0).reshape(2, 3)
ix = torch.arange(6).reshape(2, 3)
v = torch.tensor([1.0, 2.0, 3.0])

# ---- broadcasting and grids
show("broadcast_to", torch.broadcast_to(v, (2, 3)))
show("Tensor.broadcast_to", v.broadcast_to(2, 1, 3))
a, b = torch.broadcast_tensors(v, torch.tensor([[10.0], [20.0]]))
show("broadcast_tensors a", a)
show("broadcast_tensors b", b)
print("broadcast_tensors list", len(torch.broadcast_tensors(*[v, x])))
print("broadcast_shapes", torch.broadcast_shapes((2, 1), (3,), 1), torch.broadcast_shapes([4, 1, 2], (3, 1)))
gx, gy = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij")
show("meshgrid ij x", gx)
show("meshgrid ij y", gy)
gx, gy = torch.meshgrid([torch.tensor([1, 2]), torch.tensor([3, 4, 5])], indexing="xy")
show("meshgrid xy x", gx)
show("meshgrid xy y", gy)
show("cartesian_prod", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
show("logspace", torch.logspace(-1, 2, 4))
show("logspace base 2", torch.logspace(0, 4, 5, base=2.0, dtype=torch.float64))

# ---- stacking and rearranging
print("atleast_1d", torch.atleast_1d(torch.tensor(3.0)).shape, torch.atleast_2d(v).shape, torch.atleast_3d(x).shape)
print("atleast seq", [t.shape for t in torch.atleast_3d(torch.tensor(1.0), v)])
show("column_stack", torch.column_stack((torch.tensor([1, 2]), torch.tensor([[3, 4], [5, 6]]))))
show("dstack", torch.dstack([v, v * 2]))
show("row_stack", torch.row_stack((v, v + 1)))
show("rot90", torch.rot90(x))
show("rot90 k=-1", torch.rot90(x, -1, [0, 1]))
show("Tensor.rot90", x.t().rot90(2, [1, 0]))
show("block_diag", torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor(5.0), torch.tensor([6, 7])))
show("kron", torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 10]])))
show("tensordot int", torch.tensordot(x, x.t(), dims=1))
show("tensordot lists", torch.tensordot(torch.arange(24.0).reshape(2, 3, 4), torch.arange(12.0).reshape(4, 3), dims=([1, 2], [1, 0])))
show("tensordot 0", torch.tensordot(v, torch.tensor([1.0, -1.0]), dims=0))
p, q = torch.tensor([[1.0, 0, 0], [0, 2, 0]]), torch.tensor([[0.0, 1, 0], [0, 0, 3]])
show("cross", torch.cross(p, q, dim=1))
show("linalg.cross", torch.linalg.cross(p.t(), q.t(), dim=0))
show("Tensor.cross", p.cross(q, dim=-1))
show("tril_indices", torch.tril_indices(3, 3))
show("triu_indices", torch.triu_indices(3, 4, 1))
show("tril_indices neg", torch.tril_indices(4, 3, -1))

# ---- index reads and writes
show("take", torch.take(x, torch.tensor([[0, -1], [4, 2]])))
show("Tensor.take", x.t().take(torch.tensor([1, 2])))
show("take_along_dim", torch.take_along_dim(x, torch.argsort(x, dim=1, descending=True), dim=1))
show("take_along_dim flat", torch.take_along_dim(x, torch.tensor([5, 0])))
show("index_fill", x.index_fill(1, torch.tensor([0, 2]), -1.0))
show("index_fill int", ix.index_fill(0, torch.tensor([1]), 9))
y = x.clone()
y.index_fill_(-1, torch.tensor([1]), torch.tensor(7.0))
show("index_fill_", y)
show("scatter src", torch.zeros(3, 4).scatter(1, torch.tensor([[2], [0], [3]]), torch.tensor([[1.0], [2.0], [3.0]])))
show("scatter value", torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 1]]), 5.0))
show("scatter value kw", torch.zeros(2, 2, dtype=torch.long).scatter(1, torch.tensor([[1], [0]]), value=4))
z = torch.zeros(2, 3)
z.scatter_(1, torch.tensor([[0, 1], [2, 0]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
show("scatter_", z)
si = torch.tensor([[0, 1, 0, 1], [2, 2, 3, 0]])
ss = torch.tensor([[10.0, 20, 30, 40], [2, 0.5, 3, -1]])
for red in ["sum", "prod", "mean", "amax", "amin"]:
    show("scatter_reduce " + red, x.repeat(1, 2)[:, :4].scatter_reduce(1, si, ss, red))
    show("scatter_reduce " + red + " exclude self", torch.scatter_reduce(x[:, :3].repeat(1, 2)[:, :4], 1, si, ss, red, include_self=False))
show("scatter_reduce int mean", ix.scatter_reduce(0, torch.tensor([[1, 1, 0]]), torch.tensor([[-7, 2, 3]]), "mean"))
z.scatter_reduce_(0, torch.tensor([[1, 1, 0]]), torch.ones(1, 3), "sum")
show("scatter_reduce_", z)
# The older reduce= forms of scatter: "add" and "multiply" over self's values.
for red in ["add", "multiply"]:
    show("scatter reduce " + red, x.repeat(1, 2)[:, :4].scatter(1, si, ss, reduce=red))
    show("scatter value reduce " + red, x.scatter(0, torch.tensor([[1, 0, 1]]), value=3.0, reduce=red))
w = x.repeat(1, 2)[:, :4].clone()
w.scatter_(1, si, ss, reduce="add")
show("scatter_ reduce add", w)
show("scatter number reduce", x.scatter(1, torch.tensor([[2, 2], [0, 1]]), 2.0, reduce="multiply"))
try:
    x.scatter(1, si, ss, reduce="max")
except RuntimeError as e:
    print("RuntimeError", e)

# ---- statistics
d = torch.tensor([[1.0, 5, 2, 8], [3, 3, 9, 0]])
s, m = torch.std_mean(d, 1)
show("std_mean std", s)
show("std_mean mean", m)
var, m = torch.var_mean(d, dim=0, correction=0, keepdim=True)
show("var_mean var", var)
show("var_mean mean", m)
print("var_mean all", [round(t.item(), 4) for t in torch.var_mean(d, unbiased=False)])
mm = torch.aminmax(d, dim=-1)
show("aminmax min", mm.min)
show("aminmax max", mm.max)
print("aminmax all", [t.item() for t in d.aminmax()])
nan = float("nan")
n = torch.tensor([[1.0, nan, 2], [nan, nan, 4]])
show("nansum", torch.nansum(n))
show("nansum dim", n.nansum(dim=1))
show("nanmean", torch.nanmean(n, dim=1))
show("nanmean keepdim", n.nanmean(0, keepdim=True))
show("logcumsumexp", torch.logcumsumexp(torch.tensor([-1000.0, 0.0, 1000.0]), 0))
show("Tensor.logcumsumexp", torch.tensor([[0.0, 1], [2, 3]]).logcumsumexp(-1))
c = torch.tensor([1.0, 3, 2, 3, 0, 5])
cm = torch.cummax(c, 0)
show("cummax values", cm.values)
show("cummax indices", cm.indices)
cm = c.cummin(dim=-1)
show("cummin values", cm.values)
show("cummin indices", cm.indices)
u = torch.tensor([[0.0, 0], [3, 4]])
w = torch.tensor([[0.0, 0], [1, 1], [6, 8]])
show("cdist", torch.cdist(u, w))
show("cdist p1", torch.cdist(u, w, p=1))
show("cdist batched", torch.cdist(torch.randn(2, 3, 4), torch.randn(5, 4)))
show("dist", torch.dist(u[1], w[2]))
show("Tensor.dist p3", u.dist(w[1:], 3))
show("isclose", torch.isclose(torch.tensor([1.0, nan, float("inf"), 1e-9, 1.0]), torch.tensor([1.000001, nan, float("inf"), 0.0, 2.0])))
show("isclose equal_nan", torch.tensor([1.0, nan]).isclose(torch.tensor([1.1, nan]), rtol=0.2, equal_nan=True))
show("histc", torch.histc(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=4, min=0, max=3))
show("Tensor.histc", torch.tensor([1.0, 2, 1, 4, 2.5]).histc(3))
qt = torch.tensor([[1.0, 7, 3, 4], [2, 2, 9, 5]])
show("quantile", torch.quantile(qt, 0.4, dim=1))
show("quantile q tensor", torch.quantile(qt, torch.tensor([0.25, 0.5, 1.0]), dim=0, keepdim=True))
show("quantile all", qt.quantile(0.5))
for mode in ["lower", "higher", "midpoint", "nearest"]:
    show("quantile " + mode, torch.quantile(qt, torch.tensor([0.25, 0.5, 0.9]), dim=-1, interpolation=mode))
qn = torch.tensor([[1.0, nan, 3], [nan, nan, nan]])
show("nanquantile", torch.nanquantile(qn, 0.5, dim=1))
show("quantile nan", qn.quantile(0.5, dim=1))
md = torch.mode(torch.tensor([[1, 2, 2, 3, 3], [5, 4, 4, 5, 1]]), 1)
show("mode values", md.values)
show("mode indices", md.indices)
print("mode keepdim", [t.tolist() for t in torch.tensor([[1.0, 2], [1, 3], [2, 3]]).mode(0, keepdim=True)])

# ---- gradients
g = torch.randn(2, 3, requires_grad=True)
h = torch.randn(3, 2, requires_grad=True)
loss = (torch.kron(g, h) ** 2).sum() + torch.tensordot(g, h, dims=1).sum() + torch.rot90(g).pow(3).sum()
loss.backward()
print("grad kron/tensordot/rot90", r(g.grad), r(h.grad))
g.grad = None
k = torch.randn(2, 3, requires_grad=True)
loss = torch.cross(g, k, dim=1).sum() + torch.take(g, torch.tensor([0, 5, 5])).sum() + torch.block_diag(g, k).std()
loss.backward()
print("grad cross/take/block_diag", r(g.grad), r(k.grad))
g.grad = None
loss = (torch.quantile(g, 0.3, dim=1) * torch.tensor([1.0, -2.0])).sum() + torch.logcumsumexp(g, 1).sum()
loss = loss + torch.cummax(g, 0).values.sum() + torch.cdist(g, k).sum() + torch.std_mean(g, 0)[0].sum()
loss.backward()
print("grad quantile/logcumsumexp/cummax/cdist/std_mean", r(g.grad), r(k.grad))
g.grad = None
src = torch.randn(2, 2, requires_grad=True)
out = g.scatter(1, torch.tensor([[2, 0], [1, 2]]), src).index_fill(0, torch.tensor([1]), 0.5)
(out * torch.arange(6.0).reshape(2, 3)).sum().backward()
print("grad scatter/index_fill", r(g.grad), r(src.grad))
g.grad = None
torch.take_along_dim(g, torch.tensor([[1], [2]]), dim=1).sum().backward()
print("grad take_along_dim", r(g.grad))
g.grad = None
src = torch.randn(2, 3, requires_grad=True)
weights = torch.arange(6.0).reshape(2, 3)
for red in ["sum", "prod", "mean", "amax", "amin"]:
    out = g.scatter_reduce(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), src, red, include_self=red != "sum")
    (out * weights).sum().backward()
    print("grad scatter_reduce " + red, r(g.grad), r(src.grad))
    g.grad = None
    src.grad = None

# tensor_split by sections and by (unsorted, out-of-range) indices; shifts; logit; repeat(int)
print("tensor_split", torch.tensor_split(torch.arange(7), 3), torch.tensor_split(torch.arange(7), [1, 5, 3, 9]))
print("tensor_split dim", torch.arange(8).reshape(2, 4).tensor_split(3, dim=1))
print("shifts", torch.tensor([-8, 5]) >> 1, torch.tensor([3, 1]) << torch.tensor([2, 62]), 1 << torch.tensor([3]))
print("shift int32", torch.tensor([3], dtype=torch.int32) << 31, torch.tensor([-8]) >> 70)
s = torch.tensor([1, 2])
s <<= 2
print("shift inplace", s)
try:
    torch.tensor([1.0]) << 1
except RuntimeError as e:
    print("shift float:", e)
lt = torch.tensor([0.0, 0.25, 0.5, 1.0], requires_grad=True)
lo = torch.logit(lt, eps=1e-6)
print("logit", lo.grad_fn.name(), lo.detach(), torch.tensor([0.3]).logit(), torch.logit(torch.tensor([1, 0])))
torch.logit(lt, eps=0.1).sum().backward()
print("logit grad", lt.grad)
print("repeat int", torch.arange(3).repeat(2), torch.arange(3).repeat(2, 1))

# msort, trapezoid/trapz/cumulative_trapezoid, triplet_margin_loss, local_response_norm
print("msort", torch.tensor([[3.0, 1.0], [2.0, 5.0], [1.0, 4.0]]).msort())
yt = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.5, 0.5, 1.5, 3.0]])
xt = torch.tensor([0.0, 1.0, 3.0, 4.0])
print("trapezoid", torch.trapezoid(yt), torch.trapezoid(yt, dx=0.5), torch.trapezoid(yt, xt), torch.trapz(yt, xt),
      torch.trapezoid(yt, dim=0))
print("cumulative_trapezoid", torch.cumulative_trapezoid(yt), torch.cumulative_trapezoid(yt, xt))
ya = yt.clone().requires_grad_(True)
torch.trapezoid(ya, xt).sum().backward()
print("trapezoid grad", ya.grad)
torch.manual_seed(3)
anc, posi, nega = torch.randn(4, 5, requires_grad=True), torch.randn(4, 5), torch.randn(4, 5)
tl = F.triplet_margin_loss(anc, posi, nega, margin=0.5)
tl.backward()
print("triplet", tl.detach(), F.triplet_margin_loss(anc, posi, nega, p=1, swap=True, reduction="none").detach(),
      nn.TripletMarginLoss(margin=2.0)(anc, posi, nega).detach(), anc.grad[0])
lrn_in = torch.arange(2 * 5 * 2 * 2, dtype=torch.float32).reshape(2, 5, 2, 2) / 10
print("lrn", nn.LocalResponseNorm(3)(lrn_in)[1, :, 0, 0], F.local_response_norm(lrn_in[:, :, 0], 2, alpha=0.1)[0])
