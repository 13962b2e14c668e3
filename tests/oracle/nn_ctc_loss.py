# F.ctc_loss and nn.CTCLoss: padded and concatenated targets, the reductions,
# zero_infinity, blank, unbatched input, PyTorch's gradients (to log_probs:
# exp(log_probs) minus the posterior; nan for an impossible alignment).
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
T, N, C = 6, 3, 5
logits = torch.randn(T, N, C, requires_grad=True)
targets = torch.tensor([[1, 2, 2], [3, 1, 0], [4, 4, 1]])
il = torch.tensor([6, 5, 4])
tl = torch.tensor([3, 2, 3])
for red in ['none', 'mean', 'sum']:
    loss = F.ctc_loss(logits.log_softmax(2), targets, il, tl, reduction=red)
    logits.grad = None
    loss.sum().backward()
    print(red, r(loss), loss.grad_fn.name(), r(logits.grad[:, 0]))
lp = logits.log_softmax(2).detach()
leaf = lp.clone().requires_grad_()
loss = F.ctc_loss(leaf, targets, il, tl, reduction='none')
loss.sum().backward()
print(r(leaf.grad[:, 1]))
flat = torch.tensor([1, 2, 2, 3, 1, 4, 4, 1])
print(r(F.ctc_loss(lp, flat, il, tl, reduction='none')), r(F.ctc_loss(lp, flat, [6, 5, 4], [3, 2, 3], blank=0)))
print(r(F.ctc_loss(lp, targets, torch.tensor([2, 5, 4]), tl, reduction='none')))
leaf.grad = None
z = F.ctc_loss(leaf, targets, torch.tensor([2, 5, 4]), tl, reduction='none', zero_infinity=True)
z.sum().backward()
print(r(z), z.grad_fn.name(), r(leaf.grad[:, 0]), r(leaf.grad[:, 1]))
print(r(F.ctc_loss(lp, targets, il, torch.tensor([0, 2, 1]), reduction='none')))
one = F.ctc_loss(lp[:, 0], targets[0], [6], [3], reduction='none')
print(r(one), tuple(one.shape))
print(r(F.ctc_loss(lp, targets, il, tl, blank=4, reduction='none')))
m = nn.CTCLoss()
print(m, nn.CTCLoss(blank=2, reduction='sum', zero_infinity=True), r(m(lp, targets, il, tl)))
print(r(nn.CTCLoss(blank=2, reduction='sum')(lp, targets, il, tl)), r(F.ctc_loss(lp, targets.float(), il, tl)))

small = torch.randn(4, 2, 3).log_softmax(2).requires_grad_()
loss = F.ctc_loss(small, torch.tensor([[1, 2, 1], [1, 1, 0]]), [2, 4], [3, 1], reduction='none')
loss.sum().backward()
print(r(loss), r(small.grad[:, 0]), r(small.grad[:, 1]))
x = torch.randn(5, 2, 4, dtype=torch.float64).log_softmax(2).requires_grad_()
loss = F.ctc_loss(x, torch.tensor([3, 1, 1, 2]), torch.tensor([5, 4]), torch.tensor([2, 2]))
loss.backward()
print(r(loss), loss.dtype, r(x.grad[:, 1]))

for f in [lambda: F.ctc_loss(lp, targets, il, tl, blank=5), lambda: F.ctc_loss(lp, targets, il[:2], tl),
          lambda: F.ctc_loss(lp, targets, il, tl[:2]), lambda: F.ctc_loss(lp, targets[:, :2], il, tl),
          lambda: F.ctc_loss(lp, targets, torch.tensor([7, 5, 4]), tl),
          lambda: F.ctc_loss(lp, targets, il, tl, reduction='x')]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)
