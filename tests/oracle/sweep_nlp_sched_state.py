# LR scheduler state_dict() contents (PyTorch lists every attribute in the
# order it was set), nested states of SequentialLR / ChainedScheduler,
# ReduceLROnPlateau as an LRScheduler, and the optimizer repr with groups.
import torch
import torch.nn as nn
from torch.optim import lr_scheduler as L

torch.manual_seed(0)
m = nn.Linear(2, 2)


def sgd():
    return torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)


def show(name, s, n=2):
    for _ in range(n):
        s.optimizer.step()
        s.step()
    sd = s.state_dict()
    print(name, list(sd.keys()))
    print('   ', {k: v for k, v in sd.items() if k not in ('_schedulers', 'lr_lambdas', '_schedule_phases')})


show('step', L.StepLR(sgd(), 2, 0.5))
show('mstep', L.MultiStepLR(sgd(), [1, 3, 3]))
show('exp', L.ExponentialLR(sgd(), 0.9))
show('cos', L.CosineAnnealingLR(sgd(), 4))
show('cawr', L.CosineAnnealingWarmRestarts(sgd(), 3))
show('lambda', L.LambdaLR(sgd(), lambda e: 0.5))
show('onecycle', L.OneCycleLR(sgd(), 1.0, total_steps=10, anneal_strategy='linear'))
show('cyclic', L.CyclicLR(sgd(), 0.01, 0.1, step_size_up=3))
o = sgd()
show('seq', L.SequentialLR(o, [L.ConstantLR(o), L.ExponentialLR(o, 0.9)], [2]), 3)
o = sgd()
chain = L.ChainedScheduler([L.ConstantLR(o), L.ExponentialLR(o, 0.9)])
show('chain', chain)
print(chain.state_dict()['_schedulers'][1])


class Warmup:
    def __init__(self, n):
        self.n = n

    def __call__(self, epoch):
        return min(1.0, (epoch + 1) / self.n)


lam = L.LambdaLR(sgd(), [Warmup(4)])
print(lam.state_dict()['lr_lambdas'])

p = L.ReduceLROnPlateau(sgd(), mode='max', patience=0, min_lr=[0.01])
for v in [1.0, 0.5, 0.4]:
    p.step(v)
print(isinstance(p, L.LRScheduler), p.get_last_lr())
print(p.state_dict())
q = L.ReduceLROnPlateau(sgd())
q.load_state_dict(p.state_dict())
print(q.mode, q.mode_worse, q.best, q.num_bad_epochs)

s = L.StepLR(sgd(), 2)
for _ in range(3):
    s.optimizer.step()
    s.step()
s2 = L.StepLR(sgd(), 5)
s2.load_state_dict(s.state_dict())
print(s2.step_size, s2.last_epoch, s2.get_last_lr())

groups = [{'params': [m.weight], 'weight_decay': 0.1}, {'params': [m.bias], 'weight_decay': 0.0}]
print(torch.optim.AdamW(groups, lr=1e-3))
