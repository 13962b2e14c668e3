# F.lp_pool1d/2d, the multi-class and multi-label margin losses,
# triplet_margin_with_distance_loss and channel_shuffle, with their modules.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


def errors(*fs):
    for f in fs:
        try:
            f()
        except Exception as ex:
            print(type(ex).__name__, ex)


torch.manual_seed(0)
x = torch.randn(1, 2, 5, requires_grad=True)
for p, k, s, c in [(2, 2, None, False), (3.0, 3, 1, False), (1.5, 2, 2, True), (float('inf'), 2, None, False),
                   (-float('inf'), 2, 1, False)]:
    y = F.lp_pool1d(x, p, k, s, c)
    x.grad = None
    y.sum().backward()
    print('lp1d', p, tuple(y.shape), r(y), r(x.grad))
x2 = torch.randn(1, 1, 4, 5, requires_grad=True)
y = F.lp_pool2d(x2, 2, (2, 3), 1)
y.sum().backward()
print('lp2d', tuple(y.shape), r(y), y.grad_fn.name())
print(r(x2.grad))
print(r(F.lp_pool2d(x2.abs(), 1, 2, ceil_mode=True)))
m = nn.LPPool1d(2, 3)
print(m, r(m(x)))
m = nn.LPPool2d(1.5, (2, 3), 1, True)
print(m, r(m(x2.abs())))
errors(lambda: F.lp_pool1d(x, 0, 2))

inp = torch.randn(3, 4, requires_grad=True)
t = torch.tensor([1, 0, 3])
w = torch.tensor([0.5, 1.0, 2.0, 3.0])
for kw in [{}, {'p': 2}, {'margin': 0.3, 'reduction': 'sum'}, {'weight': w, 'reduction': 'none'},
           {'p': 2, 'margin': 2.0, 'weight': w}]:
    loss = F.multi_margin_loss(inp, t, **kw)
    inp.grad = None
    loss.sum().backward()
    print('mm', kw.get('p', 1), r(loss), loss.grad_fn.name(), r(inp.grad))
y = F.multi_margin_loss(inp[0], t[0], reduction='none')
print(tuple(y.shape), tuple(F.multi_margin_loss(inp[0], t[:1], reduction='none').shape))
tie = torch.tensor([[1.0, 0.0, 2.0]], requires_grad=True)
F.multi_margin_loss(tie, torch.tensor([0])).backward()
print('tie', r(tie.grad))
m = nn.MultiMarginLoss(2, 0.5, w, reduction='sum')
print(nn.MultiMarginLoss(), m, list(m.state_dict().keys()), r(m(inp, t)))
print(r(nn.MultiMarginLoss(size_average=False)(inp, t)))
errors(lambda: F.multi_margin_loss(inp, torch.tensor([1, 0, 4])),
       lambda: F.multi_margin_loss(inp, torch.tensor([1, 0])),
       lambda: F.multi_margin_loss(inp, t, p=3), lambda: F.multi_margin_loss(inp, t, weight=torch.ones(2, 2)),
       lambda: F.multi_margin_loss(inp, t, weight=torch.ones(3)), lambda: F.multi_margin_loss(inp, t, reduction='x'),
       lambda: F.multi_margin_loss(torch.randn(2, 2, 2), t), lambda: F.multi_margin_loss(inp, t.float()),
       lambda: nn.MultiMarginLoss(3))

tt = torch.tensor([[3, 0, -1, 1], [0, 1, 2, 3], [2, 2, -1, 0]])
for red in ['mean', 'sum', 'none']:
    loss = F.multilabel_margin_loss(inp, tt, reduction=red)
    inp.grad = None
    loss.sum().backward()
    print('mlm', red, r(loss), loss.grad_fn.name(), r(inp.grad))
one = F.multilabel_margin_loss(inp[0], tt[0], reduction='none')
print(r(one), tuple(one.shape))
print(nn.MultiLabelMarginLoss(), r(nn.MultiLabelMarginLoss(reduction='sum')(inp, tt)))
errors(lambda: F.multilabel_margin_loss(inp, torch.tensor([[5, 0, -1, 1]] * 3)),
       lambda: F.multilabel_margin_loss(inp, torch.tensor([[-2, 0, -1, 1]] * 3)),
       lambda: F.multilabel_margin_loss(inp, t), lambda: F.multilabel_margin_loss(inp, tt, reduction='y'),
       lambda: F.multilabel_margin_loss(inp, tt.float()))

a = torch.randn(3, 4, requires_grad=True)
pos = torch.randn(3, 4)
neg = torch.randn(3, 4)
loss = F.triplet_margin_with_distance_loss(a, pos, neg)
loss.backward()
print('tmwd', r(loss), loss.grad_fn.name(), r(a.grad))
print(r(F.triplet_margin_with_distance_loss(a, pos, neg, distance_function=lambda u, v: 1.0 - F.cosine_similarity(u, v),
                                            margin=0.5, swap=True, reduction='none')))
m = nn.TripletMarginWithDistanceLoss()
print(m, r(m(a, pos, neg)))
m = nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1.0), margin=2.0, swap=True,
                                     reduction='sum')
print(m, r(m(a, pos, neg)))
print(nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: (u - v).abs().sum(-1)))
errors(lambda: nn.TripletMarginWithDistanceLoss(margin=0), lambda: F.triplet_margin_with_distance_loss(a, a, a[0]),
       lambda: F.triplet_margin_with_distance_loss(a, a, a, margin=-1.0),
       lambda: F.triplet_margin_with_distance_loss(a, a, a, reduction='z'))

c = torch.arange(12.0).view(1, 6, 2).requires_grad_()
y = F.channel_shuffle(c, 3)
y.backward(torch.arange(12.0).view(1, 6, 2))
print(r(y), y.grad_fn.name(), r(c.grad))
print(r(torch.channel_shuffle(torch.arange(8.0).view(1, 4, 1, 2), 2)))
m = nn.ChannelShuffle(2)
print(m, r(m(torch.arange(8.0).view(2, 4, 1))))
errors(lambda: F.channel_shuffle(torch.randn(2, 4), 2), lambda: F.channel_shuffle(c, 4),
       lambda: F.channel_shuffle(c, 0))
