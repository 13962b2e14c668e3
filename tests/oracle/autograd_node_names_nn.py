# grad_fn names of torch.nn.functional and composite torch functions: PyTorch's
# node names (EluBackward0, NativeBatchNormBackward0, RollBackward0, ...), out of
# place and in place, beside a checksum of each result so a renamed node that
# computes something else cannot pass.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x0 = torch.randn(2, 6, 4, requires_grad=True)


def show(name, y):
    print(name, type(y.grad_fn).__name__, round(y.detach().double().abs().sum().item(), 3))


acts = [("elu", {}), ("selu", {}), ("celu", {"alpha": 0.5}), ("leaky_relu", {"negative_slope": 0.2}),
        ("hardtanh", {}), ("relu6", {}), ("hardsigmoid", {}), ("hardswish", {}), ("softsign", {}),
        ("logsigmoid", {}), ("tanhshrink", {}), ("softshrink", {}), ("hardshrink", {}), ("glu", {}), ("mish", {}),
        ("silu", {}), ("gelu", {}), ("softplus", {}), ("relu", {}), ("threshold", {"threshold": 0.1, "value": 0.0})]
inplace = {"elu", "selu", "celu", "leaky_relu", "hardtanh", "relu6", "hardsigmoid", "hardswish", "mish", "silu",
           "relu", "threshold"}
for name, kw in acts:
    f = getattr(F, name)
    show(name, f(x0, **kw))
    if name in inplace:
        x = x0.clone()
        z = f(x, inplace=True, **kw)
        print("  inplace", type(x.grad_fn).__name__, z is x)

show("batch_norm eval", F.batch_norm(x0, torch.zeros(6), torch.ones(6)))
show("batch_norm train", F.batch_norm(x0, None, None, training=True))
show("batch_norm affine", F.batch_norm(x0, torch.zeros(6), torch.ones(6), torch.ones(6), torch.zeros(6), True))
show("group_norm", F.group_norm(x0, 2, torch.ones(6), torch.zeros(6)))
show("instance_norm", F.instance_norm(x0, weight=torch.ones(6), bias=torch.zeros(6)))
bn = nn.BatchNorm1d(6)
show("BatchNorm1d", bn(x0))
bn.eval()
show("BatchNorm1d eval", bn(x0))

x4 = x0[None]
cases = [
    ("max_pool1d", lambda: F.max_pool1d(x0, 2)), ("avg_pool1d", lambda: F.avg_pool1d(x0, 2)),
    ("adaptive_avg_pool1d", lambda: F.adaptive_avg_pool1d(x0, 2)),
    ("adaptive_max_pool1d", lambda: F.adaptive_max_pool1d(x0, 2)),
    ("adaptive_avg_pool2d 1", lambda: F.adaptive_avg_pool2d(x4, 1)),
    ("adaptive_avg_pool2d (1, 1)", lambda: nn.AdaptiveAvgPool2d((1, 1))(x4)),
    ("adaptive_avg_pool2d 2", lambda: F.adaptive_avg_pool2d(x4, 2)),
    ("pad reflect", lambda: F.pad(x0, (1, 1), mode="reflect")),
    ("pad replicate 2d", lambda: F.pad(x4, (1, 1, 1, 0), mode="replicate")),
    ("pad circular", lambda: F.pad(x0, (1, 1), mode="circular")),
    ("pixel_shuffle", lambda: F.pixel_shuffle(x0.reshape(1, 4, 3, 4), 2)),
    ("pixel_unshuffle", lambda: F.pixel_unshuffle(x4, 2)),
    ("unfold", lambda: F.unfold(x4, 2)), ("fold", lambda: F.fold(x0.reshape(12, 4), (3, 3), 2)),
    ("cdist", lambda: torch.cdist(x0, x0)), ("dist", lambda: torch.dist(x0, x0 + 1)),
    ("cosine_similarity", lambda: F.cosine_similarity(x0, x0 + 1)),
    ("pairwise_distance", lambda: F.pairwise_distance(x0, x0 + 1)),
    ("roll", lambda: x0.roll(1, 0)), ("flip", lambda: x0.flip(0)), ("rot90", lambda: x0.rot90(1, (1, 2))),
    ("repeat_interleave", lambda: x0.repeat_interleave(2, 0)), ("tile", lambda: x0.tile(2)),
    ("baddbmm", lambda: torch.baddbmm(x0[:, :4], x0[:, :4], x0[:, :4].mT)),
    ("trace", lambda: x0[0, :4].trace()), ("diag vector", lambda: x0[0, 0].diag(1)), ("diag matrix", lambda: x0[0].diag()),
    ("take", lambda: x0.take(torch.tensor([0, 5]))),
    ("std_mean", lambda: torch.std_mean(x0, 1)[0]), ("var_mean", lambda: torch.var_mean(x0)[1]),
    ("aminmax", lambda: torch.aminmax(x0, dim=1)[1]), ("median dim", lambda: x0.median(1)[0]),
    ("scatter value", lambda: x0.scatter(2, torch.zeros(2, 6, 1, dtype=torch.long), 1.0)),
    ("index_fill", lambda: x0.index_fill(0, torch.tensor([0]), 1.0)), ("nansum", lambda: x0.nansum()),
    ("quantile", lambda: x0.quantile(0.5, dim=1)), ("kron", lambda: torch.kron(x0[0, :2], x0[1, :2])),
    ("cross", lambda: torch.linalg.cross(x0[..., :3], x0[..., 1:])),
    ("tensor_split", lambda: x0.tensor_split(2, 2)[1]), ("hsplit", lambda: x0.hsplit(3)[0]),
    ("nll_loss 3d", lambda: F.nll_loss(x0, torch.zeros(2, 4, dtype=torch.long))),
    ("nll_loss 3d none", lambda: F.nll_loss(x0, torch.zeros(2, 4, dtype=torch.long), reduction="none")),
    ("nll_loss 4d none", lambda: F.nll_loss(x4, torch.zeros(1, 6, 4, dtype=torch.long), reduction="none")),
    ("cross_entropy 3d", lambda: F.cross_entropy(x0, torch.zeros(2, 4, dtype=torch.long))),
    ("cross_entropy probs", lambda: F.cross_entropy(x0[0], x0[1].softmax(1).detach())),
    ("sdpa 4d", lambda: F.scaled_dot_product_attention(x4, x4, x4, is_causal=True)),
    ("sdpa 3d", lambda: F.scaled_dot_product_attention(x0, x0, x0)),
    ("einsum mm", lambda: torch.einsum("ij,jk->ik", x0[0], x0[1].T)),
    ("einsum bmm", lambda: torch.einsum("bij,bkj->bik", x0, x0)), ("einsum outer", lambda: torch.einsum("i,j->ij", x0[0, 0], x0[1, 0])),
    ("einsum sum", lambda: torch.einsum("bij->b", x0)), ("einsum same", lambda: torch.einsum("ij->ij", x0[0])),
    ("fro norm", lambda: x0[0].norm("fro")), ("matrix_norm", lambda: torch.linalg.matrix_norm(x0)),
    ("matrix_norm 1", lambda: torch.linalg.matrix_norm(x0, 1)), ("linalg.norm inf", lambda: torch.linalg.norm(x0[0], float("inf"))),
    ("pinv", lambda: torch.linalg.pinv(x0[0, :3, :3])),
    ("bilinear", lambda: F.bilinear(x0, x0, torch.ones(3, 4, 4))),
    ("bilinear bias", lambda: F.bilinear(x0, x0, torch.ones(3, 4, 4), torch.ones(3))),
    ("T matrix", lambda: x0[0].T), ("T vector", lambda: x0[0, 0].T), ("mT", lambda: x0.mT), ("H", lambda: x0[0].H),
    ("mH", lambda: x0.mH),
]
for name, f in cases:
    show(name, f())
for bad in [lambda: x0.H, lambda: x0[0, 0].mH, lambda: F.fold(x0[0], (3, 3), 2),
            lambda: F.fold(x0.reshape(1, 12, 4), (3, 3), (2, 1), padding=1, stride=(1, 2))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
v = x0[0, 0]
print(v.T is v, v.T.shape)

# F.cosine_similarity is PyTorch 2's: each input over its clamped norm.
print(F.cosine_similarity(torch.tensor([[1e-5, 0.0]]), torch.tensor([[1e-5, 0.0]]), eps=1e-4))
print(F.cosine_similarity(torch.zeros(2, 3), torch.ones(2, 3)))
print(F.cosine_similarity(torch.ones(2, 1), torch.arange(6.0).reshape(2, 3), dim=1))

for kw in [{}, {"num_layers": 2}, {"bidirectional": True}, {"batch_first": True}]:
    torch.manual_seed(1)
    o, (h, c) = nn.LSTM(4, 3, **kw)(x0[:, :, :4].transpose(0, 1) if not kw.get("batch_first") else x0)
    print("LSTM", kw, type(o.grad_fn).__name__, type(h.grad_fn).__name__, round(o.abs().sum().item(), 3))
o, h = nn.GRU(4, 3)(x0.transpose(0, 1))
print("GRU", type(o.grad_fn).__name__, type(h.grad_fn).__name__)
