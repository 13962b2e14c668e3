# ConstantLR and LinearLR restarted by SequentialLR at a milestone (their
# closed form from base_lrs, not the recursive one from the current lr), and
# step(epoch) on them.
import torch
from torch.optim import lr_scheduler as S


def make():
    p = torch.nn.Parameter(torch.ones(2))
    return torch.optim.SGD([{"params": [p]}, {"params": [torch.nn.Parameter(torch.ones(1))], "lr": 0.5}], lr=0.1)


def trace(opt, sched, steps):
    out = []
    for _ in range(steps):
        opt.step()
        sched.step()
        out.append([round(v, 6) for v in sched.get_last_lr()])
    return out


o = make()
s = S.SequentialLR(o, [S.ConstantLR(o, factor=0.3, total_iters=2),
                       S.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=4),
                       S.StepLR(o, 2)], milestones=[2, 6])
print(trace(o, s, 9))
o = make()
s = S.SequentialLR(o, [S.ExponentialLR(o, gamma=0.5), S.ConstantLR(o, factor=0.25, total_iters=3)], milestones=[2])
print(trace(o, s, 6))
o = make()
s = S.SequentialLR(o, [S.LinearLR(o, start_factor=0.2, total_iters=3), S.LinearLR(o, start_factor=0.5, total_iters=2)],
                   milestones=[3])
print(trace(o, s, 6))
o = make()
lin = S.LinearLR(o, start_factor=0.25, total_iters=4)
for e in (3, 1, 6):
    lin.step(e)
    print(e, [round(v, 6) for v in lin.get_last_lr()])
const = S.ConstantLR(o, factor=0.5, total_iters=2)
for e in (1, 2, 0):
    const.step(e)
    print(e, [round(v, 6) for v in const.get_last_lr()])
