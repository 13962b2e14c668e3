# torch.optim.swa_utils: AveragedModel (SWA by default, avg_fn, multi_avg_fn, EMA, use_buffers),
# SWALR's annealing (cos, linear, anneal_epochs=0), update_bn, argument errors.
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn, get_ema_avg_fn
from torch.optim import swa_utils


def r(t, n=4):
    return [round(v, n) for v in t.detach().reshape(-1).tolist()]


def net():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))


X = torch.linspace(-2, 2, 24).reshape(8, 3)
Y = torch.linspace(-1, 1, 16).reshape(8, 2)


def train(model, avg, steps, opt, sched=None):
    for i in range(steps):
        opt.zero_grad()
        loss = ((model(X) - Y) ** 2).mean()
        loss.backward()
        opt.step()
        avg.update_parameters(model)
        if sched is not None:
            sched.step()
    return loss


configs = [
    ('swa', {}),
    ('avg_fn', {'avg_fn': lambda a, m, n: 0.7 * a + 0.3 * m}),
    ('ema_multi', {'multi_avg_fn': get_ema_multi_avg_fn(0.8)}),
    ('ema_multi_buffers', {'multi_avg_fn': get_ema_multi_avg_fn(0.8), 'use_buffers': True}),
    ('ema_avg_fn', {'avg_fn': get_ema_avg_fn(0.9)}),
    ('swa_multi', {'multi_avg_fn': swa_utils.get_swa_multi_avg_fn()}),
    ('swa_buffers', {'use_buffers': True}),
]
for name, kw in configs:
    model = net()
    avg = AveragedModel(model, **kw)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    loss = train(model, avg, 4, opt)
    m0 = avg.module[0]
    print(name, avg.n_averaged.item(), avg.n_averaged.dtype, round(loss.item(), 5))
    print('  ', r(avg.module[3].weight)[:6], r(avg.module[3].bias))
    print('  ', r(avg.module[1].running_mean), r(avg.module[1].running_var), avg.module[1].num_batches_tracked.item())
    print('  ', avg.module[0].weight is not model[0].weight, avg.module[0].weight.requires_grad)

model = net()
avg = AveragedModel(model)
print(avg)
print(list(avg.state_dict().keys()))
print([n for n, _ in avg.named_parameters()][:2], [n for n, _ in avg.named_buffers()])
avg.eval()
print(r(avg(X[:2])))
try:
    AveragedModel(model, avg_fn=get_ema_avg_fn(), multi_avg_fn=get_ema_multi_avg_fn())
except AssertionError as e:
    print('AssertionError', e)
for bad in (-0.1, 1.5):
    try:
        get_ema_multi_avg_fn(bad)
    except ValueError as e:
        print('ValueError', e)

# The running average by hand: after k updates with params p_1..p_k, SWA gives their mean.
lin = nn.Linear(2, 1)
avg = AveragedModel(lin)
vals = []
for k in range(4):
    with torch.no_grad():
        lin.weight.fill_(float(k * k))
        lin.bias.fill_(float(k))
    avg.update_parameters(lin)
    vals.append((r(avg.module.weight), r(avg.module.bias)))
print(vals)

print('--- SWALR')
for kw in [{'swa_lr': 0.05}, {'swa_lr': 0.05, 'anneal_epochs': 3, 'anneal_strategy': 'linear'},
           {'swa_lr': [0.01, 0.2], 'anneal_epochs': 4}, {'swa_lr': 0.02, 'anneal_epochs': 0}]:
    p1 = nn.Parameter(torch.zeros(2))
    p2 = nn.Parameter(torch.zeros(2))
    opt = torch.optim.SGD([{'params': [p1]}, {'params': [p2], 'lr': 0.3}], lr=0.5)
    sched = SWALR(opt, **kw)
    lrs = [[round(g['lr'], 6) for g in opt.param_groups]]
    for _ in range(6):
        opt.step()
        sched.step()
        lrs.append([round(v, 6) for v in sched.get_last_lr()])
    print(kw, lrs)
    print('  ', [g['swa_lr'] for g in opt.param_groups], [g['initial_lr'] for g in opt.param_groups],
          sched.anneal_epochs, sched.last_epoch)
print(round(SWALR._cosine_anneal(0.25), 6), SWALR._linear_anneal(0.25))
sd = sched.state_dict()
print('optimizer' in sd, 'anneal_func' in sd, sd['anneal_epochs'], sd['_anneal_strategy'])
sched2 = SWALR(opt, swa_lr=0.9, anneal_strategy='linear')
sched2.load_state_dict(sd)
print(sched2.anneal_epochs, sched2._anneal_strategy, round(sched2.anneal_func(0.5), 4))
for bad in [{'swa_lr': 0.1, 'anneal_strategy': 'exp'}, {'swa_lr': 0.1, 'anneal_epochs': -1},
            {'swa_lr': 0.1, 'anneal_epochs': 2.5}, {'swa_lr': [0.1]}]:
    try:
        SWALR(opt, **bad)
    except ValueError as e:
        print('ValueError', e)

print('--- update_bn')
model = net()
model[1].running_mean.fill_(5.0)
model.eval()
loader = [(X[:4], Y[:4]), (X[4:], Y[4:])]
update_bn(loader, model)
bn = model[1]
print(r(bn.running_mean), r(bn.running_var), bn.num_batches_tracked.item(), bn.momentum, model.training)
update_bn([X[:3], X[3:]], model)
print(r(bn.running_mean), r(bn.running_var), bn.num_batches_tracked.item())
print(update_bn(loader, nn.Linear(3, 2)))
