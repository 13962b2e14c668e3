# torch.optim.RMSprop and Adagrad (all options), Adam amsgrad, SGD nesterov/dampening: short training runs.
import torch
import torch.nn as nn
import torch.nn.functional as F

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

train(lambda p: torch.optim.RMSprop(p, lr=0.01))
train(lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, eps=1e-6, weight_decay=0.1, momentum=0.5, centered=True))
train(lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True))
train(lambda p: torch.optim.RMSprop(p, lr=0.001, momentum=0.5, maximize=True))
train(lambda p: torch.optim.Adagrad(p, lr=0.1))
train(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.05, initial_accumulator_value=0.1, eps=1e-8))
train(lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True))
train(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True))
train(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1))

# Parameter groups with their own options.
torch.manual_seed(2)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
opt = torch.optim.RMSprop([{'params': [a]}, {'params': [b], 'lr': 0.1, 'centered': True}], lr=0.01, momentum=0.2)
opt2 = torch.optim.Adagrad([a, b], lr=0.5)
for i in range(4):
    for o in [opt, opt2]:
        o.zero_grad()
        ((a - 1) ** 2 + (b * a).sin()).sum().backward()
        o.step()
    print(r(a), r(b))
print(opt.param_groups[1]['lr'], opt.param_groups[1]['centered'], opt.param_groups[0]['centered'], opt.param_groups[0]['alpha'])
for make in [lambda: torch.optim.RMSprop([a], lr=-1), lambda: torch.optim.RMSprop([a], alpha=-0.5),
             lambda: torch.optim.RMSprop([a], momentum=-1), lambda: torch.optim.Adagrad([a], lr_decay=-1),
             lambda: torch.optim.Adagrad([a], eps=-1), lambda: torch.optim.Adagrad([a], initial_accumulator_value=-1)]:
    try:
        make()
    except ValueError as e:
        print(e)
