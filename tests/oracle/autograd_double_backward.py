# Second derivatives through the common differentiable ops: for each, the gradient
# of sum(sin(f(x)) * c) with create_graph=True, then a Hessian-vector product
# (the gradient of <grad, v>). Covers the backward ops that are kernels of their
# own (nll_loss, convolution, pooling, embedding, gelu, cumprod), products with
# zeros, recurrent layers, and Hessians through torch.autograd.functional.
import torch
import torch.nn as nn
import torch.nn.functional as F


def mk(shape, seed):
    n = 1
    for s in shape:
        n *= s
    return torch.sin(torch.arange(n, dtype=torch.float32) * 1.37 + seed).reshape(shape)


def leaf(shape, seed):
    return mk(shape, seed).requires_grad_(True)


def r4(v):
    return round(v, 4) + 0.0  # no -0.0


def show(t):
    if t is None:
        return "None"
    f = t.detach().reshape(-1)
    return str(r4(f.sum().item())) + " " + str([r4(v) for v in f[:4].tolist()])


def check(name, f, inputs):
    out = f(*inputs)
    c = mk(list(out.shape), 0.3)
    gs = torch.autograd.grad((torch.sin(out) * c).sum(), inputs, create_graph=True, allow_unused=True)
    tot = None
    for i in range(len(inputs)):
        if gs[i] is not None and gs[i].requires_grad:
            term = (gs[i] * mk(list(inputs[i].shape), 1.1 + i)).sum()
            tot = term if tot is None else tot + term
    hv = torch.autograd.grad(tot, inputs, allow_unused=True)
    print(name, " | ".join([show(h) for h in hv]))


x = lambda: leaf([3, 4], 0.2)
for nm, fn in [("gelu", F.gelu), ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh")), ("silu", F.silu),
               ("softplus", lambda t: F.softplus(t, beta=2.0, threshold=1.0)), ("elu", F.elu), ("selu", F.selu),
               ("leaky_relu", lambda t: F.leaky_relu(t, 0.1)), ("hardtanh", lambda t: F.hardtanh(t, -0.5, 0.5)),
               ("mish", F.mish), ("logsigmoid", F.logsigmoid), ("log_softmax", lambda t: F.log_softmax(t, 1)),
               ("softmax", lambda t: F.softmax(t, 0)), ("digamma", lambda t: torch.digamma(t.abs() + 0.5)),
               ("prod", lambda t: t.prod(1)), ("amax", lambda t: t.amax(1)), ("norm", lambda t: t.norm(dim=1)),
               ("std", lambda t: t.std(1)), ("logsumexp", lambda t: t.logsumexp(1)),
               ("cumprod", lambda t: t.cumprod(1)), ("logcumsumexp", lambda t: t.logcumsumexp(1)),
               ("gather", lambda t: t.gather(1, torch.tensor([[0, 2], [1, 1], [3, 0]]))),
               ("index_select", lambda t: t.index_select(1, torch.tensor([0, 2, 2]))),
               ("scatter_add", lambda t: torch.zeros(3, 5).scatter_add(1, torch.tensor([[0, 1, 1, 4]] * 3), t)),
               ("where", lambda t: torch.where(t > 0, t * t, torch.sin(t))),
               ("masked_fill", lambda t: t.masked_fill(t > 0.5, 0.0)),
               ("cat_stack_split", lambda t: torch.stack([torch.cat([t, t * t], 1).split(4, 1)[1], t])),
               ("pad_reflect", lambda t: F.pad(t.reshape(1, 3, 4), (1, 2), mode="reflect"))]:
    check(nm, fn, [x()])

# Zeros: the product of the others stays differentiable (one zero, two zeros).
z = torch.tensor([[0.0, 2.0, -1.5, 0.5], [0.0, 1.5, 0.0, 2.0], [1.0, 0.5, -2.0, 3.0]])
check("prod_zeros", lambda t: t.prod(1), [z.clone().requires_grad_(True)])
check("prod_all_zero", lambda t: t.prod(), [z[0:1].clone().requires_grad_(True)])
check("cumprod_zeros", lambda t: t.cumprod(1), [z.clone().requires_grad_(True)])
check("logsigmoid_at_0", F.logsigmoid, [torch.tensor([0.0, -30.0, 30.0, 1.0], requires_grad=True)])
ls_x = torch.tensor([200.0, 0.0, -200.0, float("nan")], requires_grad=True)
F.logsigmoid(ls_x).sum().backward()
print("logsigmoid edges", F.logsigmoid(ls_x.detach()).tolist(), ls_x.grad.tolist())

# Losses.
inp = lambda: leaf([4, 5], 0.2)
tgt = torch.tensor([1, 0, 4, 2])
prob = F.softmax(mk([4, 5], 2.0), 1)
cw = torch.tensor([1.0, 2.0, 0.5, 1.5, 1.0])
t45 = mk([4, 5], 3.0)
check("cross_entropy", lambda a: F.cross_entropy(a, tgt), [inp()])
check("cross_entropy_none", lambda a: F.cross_entropy(a, tgt, reduction="none"), [inp()])
check("cross_entropy_weight", lambda a: F.cross_entropy(a, tgt, weight=cw), [inp()])
check("cross_entropy_ignore", lambda a: F.cross_entropy(a, tgt, ignore_index=0), [inp()])
check("cross_entropy_smooth", lambda a: F.cross_entropy(a, tgt, weight=cw, label_smoothing=0.2), [inp()])
check("cross_entropy_probs", lambda a: F.cross_entropy(a, prob, label_smoothing=0.1), [inp()])
check("cross_entropy_3d", lambda a: F.cross_entropy(a.reshape(2, 5, 2), torch.tensor([[1, 0], [4, 2]])), [inp()])
check("nll_loss_sum", lambda a: F.nll_loss(a * a, tgt, weight=cw, reduction="sum"), [inp()])
check("mse", lambda a, b: F.mse_loss(a, b, reduction="sum"), [inp(), leaf([4, 5], 3.0)])
check("smooth_l1", lambda a: F.smooth_l1_loss(a, t45, beta=0.5), [inp()])
check("bce", lambda a: F.binary_cross_entropy(torch.sigmoid(a), prob, weight=cw), [inp()])
check("bce_logits", lambda a: F.binary_cross_entropy_with_logits(a, prob, pos_weight=cw), [inp()])
check("kl_div", lambda a: F.kl_div(F.log_softmax(a, 1), prob, reduction="batchmean"), [inp()])

# Matmul, linear and convolutions.
check("matmul", lambda a, b: a @ b, [leaf([3, 4], 0.1), leaf([4, 2], 0.5)])
check("linear", lambda a, w, b: F.linear(a, w, b), [leaf([3, 4], 0.1), leaf([2, 4], 0.5), leaf([2], 0.8)])
check("conv1d", lambda a, w, b: F.conv1d(a, w, b, padding=1), [leaf([2, 2, 6], 0.1), leaf([3, 2, 3], 0.5),
                                                               leaf([3], 0.8)])
check("conv2d", lambda a, w, b: F.conv2d(a, w, b, stride=2, padding=1), [leaf([1, 2, 5, 5], 0.1),
                                                                         leaf([3, 2, 3, 3], 0.5), leaf([3], 0.8)])
check("conv2d_groups", lambda a, w: F.conv2d(a, w, groups=2, dilation=2), [leaf([1, 4, 5, 5], 0.1),
                                                                           leaf([4, 2, 2, 2], 0.5)])
check("conv_transpose2d", lambda a, w, b: F.conv_transpose2d(a, w, b, stride=2), [leaf([1, 2, 3, 3], 0.1),
                                                                                  leaf([2, 3, 2, 2], 0.5),
                                                                                  leaf([3], 0.8)])

# Pooling, normalization, interpolation, embedding.
img = lambda: leaf([1, 2, 4, 4], 0.4)
check("max_pool2d", lambda a: F.max_pool2d(a, 3, stride=1, padding=1), [img()])
check("max_pool1d", lambda a: F.max_pool1d(a.reshape(2, 2, 8), 2), [img()])
check("avg_pool2d", lambda a: F.avg_pool2d(a, 3, stride=2, padding=1), [img()])
check("adaptive_avg_pool2d", lambda a: F.adaptive_avg_pool2d(a, 3), [img()])
check("adaptive_max_pool2d", lambda a: F.adaptive_max_pool2d(a, 3), [img()])
check("layer_norm", lambda a, w, b: F.layer_norm(a, [4], w, b), [leaf([3, 4], 0.1), leaf([4], 0.5), leaf([4], 0.8)])
check("batch_norm", lambda a, w, b: F.batch_norm(a, None, None, w, b, training=True), [leaf([4, 3], 0.1),
                                                                                       leaf([3], 0.5), leaf([3], 0.8)])
check("group_norm", lambda a, w, b: F.group_norm(a, 2, w, b), [leaf([2, 4, 3], 0.1), leaf([4], 0.5), leaf([4], 0.8)])
check("interp_bilinear", lambda a: F.interpolate(a, size=(5, 7), mode="bilinear", align_corners=False), [img()])
check("embedding", lambda w: F.embedding(torch.tensor([[0, 2], [2, 3]]), w) ** 2, [leaf([4, 3], 0.1)])
check("embedding_padding", lambda w: F.embedding(torch.tensor([0, 2, 1]), w, padding_idx=1), [leaf([4, 3], 0.1)])

# Third derivative through gelu_backward's derivative.
t = torch.tensor([-1.5, -0.3, 0.4, 2.0], requires_grad=True)
(g1,) = torch.autograd.grad(F.gelu(t).sum(), t, create_graph=True)
(g2,) = torch.autograd.grad(g1.sum(), t, create_graph=True)
(g3,) = torch.autograd.grad(g2.sum(), t)
print("gelu derivatives", [r4(v) for v in g2.tolist()], [r4(v) for v in g3.tolist()])


# Hessians of a cross-entropy loss through torch.autograd.functional.
def ce_loss(w):
    return F.cross_entropy(mk([3, 4], 0.0) @ w, torch.tensor([0, 2, 1]))


H = torch.autograd.functional.hessian(ce_loss, mk([4, 3], 0.5))
print("hessian", list(H.shape), [r4(v) for v in H.reshape(12, 12).diagonal().tolist()[:6]])
print("hessian symmetric", bool(torch.allclose(H.reshape(12, 12), H.reshape(12, 12).t(), atol=1e-6)))
_, hv = torch.autograd.functional.hvp(ce_loss, mk([4, 3], 0.5), mk([4, 3], 1.5))
print("hvp", [r4(v) for v in hv.reshape(-1)[:6].tolist()])


# A small CNN classifier: gradient-norm penalty with backward(create_graph=True).
def cnn(xb, p):
    h = F.relu(F.conv2d(xb, p[0], p[1], padding=1))
    h = F.max_pool2d(h, 2)
    return F.linear(h.flatten(1), p[2])


params = [leaf([3, 1, 3, 3], 0.2), leaf([3], 0.4), leaf([2, 12], 0.6)]
xb = mk([2, 1, 4, 4], 0.9)
loss = F.cross_entropy(cnn(xb, params), torch.tensor([1, 0]))
grads = torch.autograd.grad(loss, params, create_graph=True)
penalty = sum([(g * g).sum() for g in grads])
penalty.backward()
print("penalty", r4(penalty.item()), [[r4(v) for v in p.grad.reshape(-1)[:4].tolist()] for p in params])


# Recurrent layers: Hessian-vector products through nn.LSTM (two layers, both directions) and nn.GRU.
for name, m in [("lstm", nn.LSTM(2, 3, num_layers=2, bidirectional=True)), ("gru", nn.GRU(2, 3, batch_first=True))]:
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(mk(list(p.shape), 0.3 * i))
    xs = leaf([3, 2, 2], 0.5)
    out = m(xs)[0]
    (gx,) = torch.autograd.grad((torch.sin(out) * mk(list(out.shape), 0.3)).sum(), xs, create_graph=True)
    hv = torch.autograd.grad((gx * mk([3, 2, 2], 1.1)).sum(), [xs] + list(m.parameters()))
    print(name, show(hv[0]), "|", show(hv[1]))
