# Indexing work the fused code generator compiles: embedding lookups (and
# their backward, a scatter-add), index_select and gather, nll_loss and
# cross_entropy with class weights, ignore_index and every reduction (and
# their gradients), arange, tril/triu and cat. Each function is
# torch.compile'd and called several times, so the compiled kernels run.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def show(name, t):
    flat = t.detach().reshape(-1).double()
    print(name, list(t.shape), t.dtype, round(flat.sum().item(), 4), round(flat.abs().max().item(), 4),
          [round(v, 4) for v in flat[:5].tolist()])


@torch.compile
def embed(tok, pos_table, table, ids):
    t = ids.shape[-1]
    return F.embedding(ids, table) + F.embedding(torch.arange(t), pos_table) * tok


@torch.compile
def padded(table, ids):
    return F.embedding(ids, table, padding_idx=2).sum(-1)


@torch.compile
def losses(logits, target, weight):
    return (F.cross_entropy(logits, target),
            F.cross_entropy(logits, target, weight=weight, ignore_index=1),
            F.nll_loss(F.log_softmax(logits, 1), target, reduction="sum"),
            F.nll_loss(F.log_softmax(logits, 1), target, weight=weight, reduction="none"))


@torch.compile
def selects(x, idx, gidx):
    return torch.index_select(x, 1, idx) * 2.0, torch.gather(x, 1, gidx) + 1.0


@torch.compile
def masks(x):
    return torch.tril(x, 1) - torch.triu(x, -1), x * torch.arange(x.shape[-1])


@torch.compile
def joins(a, b):
    return torch.cat([a, b * 2.0], 1), torch.cat((b, a), 1).exp()


table = torch.randn(11, 7, requires_grad=True)
pos_table = torch.randn(9, 7, requires_grad=True)
logits = torch.randn(13, 6, requires_grad=True)
weight = torch.rand(6) + 0.5
x = torch.randn(5, 9, requires_grad=True)
for step in range(3):
    ids = torch.randint(0, 11, (2, 9))
    ids[0, step] = ids[1, step]  # rows meet in the backward's scatter-add
    out = embed(0.5, pos_table, table, ids)
    show("embed", out)
    (out * out).sum().backward()
    show("embed table.grad", table.grad)
    show("embed pos.grad", pos_table.grad)
    p = padded(table, torch.tensor([[2, 3, 2], [0, 2, 10]]))
    show("padded", p)
    p.sum().backward()
    show("padded table.grad", table.grad)
    table.grad = None
    pos_table.grad = None

    target = torch.randint(0, 6, (13,))
    target[step] = 1  # the ignored class appears
    l_mean, l_weighted, l_sum, l_none = losses(logits, target, weight)
    for name, v in (("ce mean", l_mean), ("ce weighted", l_weighted), ("nll sum", l_sum), ("nll none", l_none)):
        show(name, v)
    (l_mean + l_weighted * 2.0 + l_sum * 0.1 + l_none.sum()).backward()
    show("logits.grad", logits.grad)
    logits.grad = None

    idx = torch.tensor([8, 0, 3, 3, step])
    gidx = torch.randint(0, 9, (5, 4))
    s, g = selects(x, idx, gidx)
    show("index_select", s)
    show("gather", g)
    (s.sum() + (g * g).sum()).backward()
    show("selects x.grad", x.grad)
    x.grad = None

    tri, ar = masks(x.detach() + step)
    show("tril - triu", tri)
    show("x * arange", ar)
    c1, c2 = joins(x.detach()[:, :4], x.detach()[:, 4:] * 0.5)
    show("cat", c1)
    show("cat exp", c2)
