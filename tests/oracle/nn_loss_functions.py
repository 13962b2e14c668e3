# F losses and distances (BCE, BCE with logits, smooth L1, Huber, KL, margin/hinge/NLL losses,
# cosine similarity, pairwise distance), their nn modules, and F.cross_entropy's options.
import torch
import torch.nn as nn
import torch.nn.functional as F

def r(t):
    if t.dim() == 0:
        return round(t.item(), 4)
    return [round(v, 4) for v in t.flatten().tolist()]

torch.manual_seed(0)
x = torch.randn(4, 3)
p = torch.sigmoid(x)
t = torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.5, 0.2, 0.9]])
w = torch.tensor([1.0, 2.0, 0.5])
for red in ['mean', 'sum', 'none']:
    print('bce', red, r(F.binary_cross_entropy(p, t, reduction=red)), r(F.binary_cross_entropy(p, t, weight=w, reduction=red)))
    print('bcel', red, r(F.binary_cross_entropy_with_logits(x, t, reduction=red)),
          r(F.binary_cross_entropy_with_logits(x, t, pos_weight=w, reduction=red)),
          r(F.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=w, reduction=red)))
    print('sl1', red, r(F.smooth_l1_loss(x, t, reduction=red)), r(F.smooth_l1_loss(x, t, reduction=red, beta=0.5)),
          r(F.smooth_l1_loss(x, t, reduction=red, beta=0.0)))
    print('huber', red, r(F.huber_loss(x, t, reduction=red)), r(F.huber_loss(x, t, reduction=red, delta=0.3)))
    print('soft_margin', red, r(F.soft_margin_loss(x, t * 2 - 1, reduction=red)))
    print('hinge', red, r(F.hinge_embedding_loss(x, torch.sign(t - 0.5), reduction=red)), r(F.hinge_embedding_loss(x, torch.sign(t - 0.5), margin=0.5, reduction=red)))
    print('poisson', red, r(F.poisson_nll_loss(x, t, reduction=red)), r(F.poisson_nll_loss(p, t * 3, log_input=False, full=True, reduction=red)))
    print('gauss', red, r(F.gaussian_nll_loss(x, t, p, reduction=red)), r(F.gaussian_nll_loss(x, t, p[:, :1], full=True, reduction=red)))
print(r(F.binary_cross_entropy(torch.tensor([0.0, 1.0, 0.5]), torch.tensor([1.0, 0.0, 1.0]))))
lp = F.log_softmax(x, dim=1)
q = F.softmax(torch.randn(4, 3), dim=1)
for red in ['mean', 'sum', 'none', 'batchmean']:
    print('kl', red, r(F.kl_div(lp, q, reduction=red)), r(F.kl_div(lp, q.log(), reduction=red, log_target=True)))
a = torch.randn(5, 4)
b = torch.randn(5, 4)
print('cos', r(F.cosine_similarity(a, b)), r(F.cosine_similarity(a, b, dim=0)), r(F.cosine_similarity(a, b[0], dim=-1)))
print('pd', r(F.pairwise_distance(a, b)), r(F.pairwise_distance(a, b, p=1.0)), r(F.pairwise_distance(a, b, p=3.0, keepdim=True)))
y = torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0])
for red in ['mean', 'sum', 'none']:
    print('cel', red, r(F.cosine_embedding_loss(a, b, y, reduction=red)), r(F.cosine_embedding_loss(a, b, y, margin=0.2, reduction=red)))
    print('mrl', red, r(F.margin_ranking_loss(a[:, 0], b[:, 0], y, reduction=red)), r(F.margin_ranking_loss(a[:, 0], b[:, 0], y, margin=0.5, reduction=red)))
print(nn.BCELoss()(p, t).item() == F.binary_cross_entropy(p, t).item())
mods = [nn.BCELoss(weight=w), nn.BCEWithLogitsLoss(pos_weight=w), nn.L1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=0.5),
        nn.SoftMarginLoss(), nn.MSELoss(reduction='sum'), nn.L1Loss(reduction='none'), nn.L1Loss(size_average=False)]
for m in mods:
    print(m, r(m(p if isinstance(m, nn.BCELoss) else x, t)))
print(nn.KLDivLoss(reduction='batchmean')(lp, q))
print(nn.NLLLoss()(lp, torch.tensor([0, 2, 1, 1])), nn.NLLLoss(weight=w, reduction='sum')(lp, torch.tensor([0, 2, 1, 1])))
print(r(nn.CosineSimilarity(dim=0)(a, b)), r(nn.PairwiseDistance()(a, b)), nn.CosineEmbeddingLoss(margin=0.1)(a, b, y))
print(r(nn.MarginRankingLoss(0.1)(a[:, 1], b[:, 1], y)), nn.HingeEmbeddingLoss()(a[:, 1], y), nn.PoissonNLLLoss()(x, t), nn.GaussianNLLLoss()(x, t, p))
print(nn.BCEWithLogitsLoss(), nn.PairwiseDistance(), nn.KLDivLoss())
xx = x.clone().requires_grad_()
F.binary_cross_entropy_with_logits(xx, t, pos_weight=w).backward()
print(r(xx.grad))
xx.grad = None
F.kl_div(F.log_softmax(xx, 1), q, reduction='batchmean').backward()
print(r(xx.grad))
xx.grad = None
F.smooth_l1_loss(xx, t).backward()
print(r(xx.grad))
# cross entropy variants
logits = torch.randn(4, 5)
tgt = torch.tensor([1, 0, 4, -100])
print('ce', r(F.cross_entropy(logits, tgt)), r(F.cross_entropy(logits, tgt, label_smoothing=0.1)), r(F.cross_entropy(logits, tgt, reduction='none')))
print('ce', r(F.cross_entropy(logits, torch.tensor([1, 0, 4, 2]), weight=torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0]), label_smoothing=0.2)))
print('ce', r(F.cross_entropy(logits, torch.tensor([1, 0, 4, 2]), ignore_index=0, reduction='sum')))
print('ce soft', r(F.cross_entropy(logits, F.softmax(torch.randn(4, 5), 1))), r(F.cross_entropy(logits, F.softmax(torch.randn(4, 5), 1), label_smoothing=0.3, reduction='none')))
img = torch.randn(2, 3, 2, 2)
it = torch.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])
print('ce 4d', r(F.cross_entropy(img, it)), r(F.cross_entropy(img, it, reduction='none')), r(F.cross_entropy(img, it, label_smoothing=0.1, weight=torch.tensor([0.3, 1.0, 2.0]))))


# A loss function called repeatedly (compiled by the JIT after a few calls).
def step_loss(inp, tgt, wt):
    return (F.binary_cross_entropy_with_logits(inp, tgt, pos_weight=wt) + F.smooth_l1_loss(inp, tgt, beta=0.5) +
            F.huber_loss(inp, tgt, delta=0.7) + F.kl_div(F.log_softmax(inp, 1), F.softmax(tgt, 1), reduction='batchmean'))


for i in range(6):
    xi = (x * (1 + 0.1 * i)).requires_grad_()
    li = step_loss(xi, t, w)
    li.backward()
    print(i, round(li.item(), 5), r(xi.grad[0]))
