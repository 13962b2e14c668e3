# torch.optim.SGD: plain, momentum, dampening, weight decay, nesterov; several steps each.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(16, 3)
Y = (X[:, 0] - 2 * X[:, 1] > 0).long()
def run(**kw):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    opt = torch.optim.SGD(model.parameters(), **kw)
    losses = []
    for step in range(8):
        opt.zero_grad()
        loss = F.cross_entropy(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 6))
    print(kw, losses)
    print("  final", [round(v, 6) for v in model[2].weight.flatten().tolist()])
run(lr=0.1)
run(lr=0.1, momentum=0.9)
run(lr=0.05, momentum=0.9, dampening=0.5)
run(lr=0.1, momentum=0.9, weight_decay=0.01)
run(lr=0.1, momentum=0.8, nesterov=True)
run(lr=0.2, weight_decay=0.1)
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
for _ in range(3):
    opt.zero_grad()
    (w * w).sum().backward()
    opt.step()
print(w.tolist(), opt.param_groups[0]["lr"], len(opt.param_groups), len(opt.param_groups[0]["params"]))
opt.param_groups[0]["lr"] = 0.1
opt.zero_grad()
(w * w).sum().backward()
opt.step()
print(w.tolist())
a = torch.tensor([1.0], requires_grad=True)
b = torch.tensor([1.0], requires_grad=True)
opt2 = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.01}], lr=0.1, momentum=0.5)
for _ in range(3):
    opt2.zero_grad()
    (a * 3 + b * 3).sum().backward()
    opt2.step()
print(a.tolist(), b.tolist(), opt2.param_groups[1]["lr"], opt2.param_groups[1]["momentum"])
c = torch.tensor([1.0], requires_grad=True)
d = torch.tensor([1.0], requires_grad=True)
opt3 = torch.optim.SGD([c, d], lr=0.1, momentum=0.9, weight_decay=0.1)
opt3.zero_grad()
(c * 2).sum().backward()
opt3.step()
print(c.tolist(), d.tolist(), d.grad)
try:
    torch.optim.SGD([c], lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([c], lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
