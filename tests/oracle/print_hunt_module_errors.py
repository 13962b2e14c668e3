# Errors from module attributes, buffers, schedulers and einsum, as PyTorch words them
import torch
import torch.nn as nn


def show(name, f):
    try:
        print(name, "->", f())
    except Exception as e:
        print(name, type(e).__name__, e)


show("assign-tensor", lambda: setattr(nn.Linear(2, 2), 'weight', torch.ones(2, 2)))
show("assign-long", lambda: setattr(nn.Linear(2, 2), 'weight', torch.ones(2, dtype=torch.int64)))
show("assign-int", lambda: setattr(nn.Linear(2, 2), 'weight', 3))
show("assign-module", lambda: setattr(nn.Sequential(nn.ReLU()), '0', torch.ones(1)))
show("buffer-dot", lambda: nn.Module().register_buffer('a.b', None))
show("buffer-empty", lambda: nn.Module().register_buffer('', None))
show("buffer-int", lambda: nn.Module().register_buffer(3, None))
show("buffer-ok", lambda: list(nn.Module().register_buffer('a', torch.ones(1)) or []))
show("param-dot", lambda: nn.Module().register_parameter('a.b', None))
show("module-dot", lambda: nn.Module().add_module('a.b', None))
show("sched-none", lambda: torch.optim.lr_scheduler.StepLR(None, 1))
show("sched-int", lambda: torch.optim.lr_scheduler.CosineAnnealingLR(3, 1))
opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)
show("sched-ok", lambda: torch.optim.lr_scheduler.StepLR(opt, 1).get_last_lr())
x = torch.ones(2, 3)
show("es", lambda: torch.einsum('ij,jk->ik', x, x))
show("es2", lambda: torch.einsum('ij,ij->i', x, torch.ones(2, 4)))
show("einsum-bcast", lambda: torch.einsum('ij,ij->i', x, torch.ones(1, 3)).tolist())
show("einsum-ok", lambda: torch.einsum('ij,kj->ik', x, x).tolist())
