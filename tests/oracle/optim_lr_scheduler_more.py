# CosineAnnealingWarmRestarts, PolynomialLR, SequentialLR (warm-up then decay)
# and ChainedScheduler, step for step as PyTorch.
import torch
from torch.optim import lr_scheduler as S
def run(make, steps=12):
    w = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    sched = make(opt)
    lrs = []
    for _ in range(steps):
        opt.step()
        sched.step()
        lrs.append(round(opt.param_groups[0]['lr'], 8))
    print(type(sched).__name__, lrs, [round(v, 8) for v in sched.get_last_lr()])
run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01))
run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=4))
run(lambda o: S.PolynomialLR(o, total_iters=6, power=2.0))
run(lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=3), S.CosineAnnealingLR(o, T_max=8)], milestones=[3]))
run(lambda o: S.SequentialLR(o, [S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.9), S.StepLR(o, 2)], milestones=[2, 5]))
run(lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.1, total_iters=2), S.ExponentialLR(o, gamma=0.9)]))
