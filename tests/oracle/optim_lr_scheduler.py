# torch.optim.lr_scheduler: each scheduler driving a short training run, printing losses and lrs.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import lr_scheduler

def r(t):
    if t.dim() == 0:
        return round(t.item(), 4)
    return [round(v, 4) for v in t.flatten().tolist()]

def train(make_opt, make_sched=None, steps=6):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = make_opt(model.parameters())
    sched = make_sched(opt) if make_sched else None
    x = torch.randn(16, 4)
    y = torch.randn(16, 1)
    out = []
    for i in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
            out.append((round(loss.item(), 5), [round(v, 6) for v in sched.get_last_lr()]))
        else:
            out.append(round(loss.item(), 5))
    print(out)
    print(r(model[0].weight[0]))

train(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.5))
train(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: lr_scheduler.MultiStepLR(o, milestones=[1, 3, 3], gamma=0.5))
train(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9))
train(lambda p: torch.optim.Adam(p, lr=0.01), lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.001), steps=10)
train(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: lr_scheduler.LambdaLR(o, lambda e: 1.0 / (e + 1)))
train(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))
train(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3))
train(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.95))
train(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=10), steps=10)
train(lambda p: torch.optim.Adam(p, lr=0.1), lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.05, epochs=2, steps_per_epoch=5, anneal_strategy='linear', three_phase=True), steps=10)
opt = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=1.0)
s = lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)
for m in [1.0, 0.9, 0.95, 0.95, 0.95, 0.5, 0.6, 0.7, 0.8]:
    s.step(m)
    print(opt.param_groups[0]['lr'])
opt = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=1.0, momentum=0.9)
s = lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=4)
print(opt.param_groups[0]['momentum'], opt.param_groups[0]['initial_lr'])
print([round(v, 6) for v in s.get_last_lr()], s.last_epoch, s.total_steps)
for i in range(4):
    opt.step()
    s.step()
    print([round(v, 6) for v in s.get_last_lr()], round(opt.param_groups[0]["momentum"], 4))

# Resuming a schedule: last_epoch and stepping with an explicit epoch.
opt = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=1.0)
s = lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for i in range(5):
    opt.step()
    s.step()
print(s.get_last_lr(), s.last_epoch, opt.param_groups[0]['initial_lr'])
s2 = lr_scheduler.ExponentialLR(opt, gamma=0.5, last_epoch=4)
print(s2.get_last_lr())
opt = torch.optim.SGD([{'params': [torch.zeros(1)]}, {'params': [torch.zeros(1)], 'lr': 0.5}], lr=1.0)
s = lr_scheduler.LambdaLR(opt, [lambda e: 0.5 ** e, lambda e: 1.0 + e])
for i in range(3):
    opt.step()
    s.step()
    print([round(v, 6) for v in s.get_last_lr()], [g['lr'] for g in opt.param_groups])
try:
    lr_scheduler.LambdaLR(opt, [lambda e: 1.0])
except ValueError as e:
    print(e)
try:
    lr_scheduler.LinearLR(opt, start_factor=1.5)
except ValueError:
    print('LinearLR: ValueError')
