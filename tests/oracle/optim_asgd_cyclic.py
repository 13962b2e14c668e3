# torch.optim.ASGD (float32 eta and mu state, weight decay, averaging from t0)
# and lr_scheduler.CyclicLR (its three modes, momentum cycling, Adam's beta1).
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(16, 3)
Y = torch.randn(16, 1)


def train(make_opt, make_sched=None, steps=8):
    m = nn.Linear(3, 1)
    opt = make_opt(m.parameters())
    sched = make_sched(opt) if make_sched else None
    lrs = []
    for _ in range(steps):
        loss = ((m(X) - Y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched:
            sched.step()
            lrs.append(round(sched.get_last_lr()[0], 8))
    print(f"{loss.item():.5f}", m.weight.data, lrs)
    return opt


opt = train(lambda p: torch.optim.ASGD(p, lr=0.1))
state = opt.state[opt.param_groups[0]['params'][0]]
print(sorted(state.keys()), state['eta'], state['mu'], state['ax'])
opt = train(lambda p: torch.optim.ASGD(p, lr=0.05, lambd=0.01, alpha=0.5, t0=3, weight_decay=0.1))
state = opt.state[opt.param_groups[0]['params'][0]]
print(state['eta'], state['mu'], state['ax'], state['step'])
print(opt)

opt = train(lambda p: torch.optim.SGD(p, lr=0.1),
            lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2))
print(opt.param_groups[0]['momentum'])
train(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.5),
      lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=3, step_size_down=1, mode='triangular2'))
train(lambda p: torch.optim.SGD(p, lr=0.1),
      lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode='exp_range', gamma=0.9,
                                                  cycle_momentum=False))
opt = train(lambda p: torch.optim.Adam(p, lr=0.1),
            lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.001, 0.05, step_size_up=2, base_momentum=0.85,
                                                        max_momentum=0.95))
print(opt.param_groups[0]['betas'])
train(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
      lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 0.5 ** x,
                                                  scale_mode='iterations'))
try:
    torch.optim.lr_scheduler.CyclicLR(torch.optim.Adagrad([torch.zeros(1, requires_grad=True)]), 0.1, 1.0)
except ValueError as e:
    print("ValueError:", e)
