# Module.__delattr__, forward (pre-)hooks with handles, nested ModuleDict parameters,
# and resuming training from an optimizer's and a scheduler's state_dict.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

m = nn.Module()
m.a = nn.Linear(2, 2)
m.d = nn.ModuleDict({'x': nn.Linear(2, 3), 'y': nn.Sequential(nn.Linear(3, 1))})
print([n for n, _ in m.named_parameters()])
del m.a
print([n for n, _ in m.named_parameters()], hasattr(m, 'a'))
m.register_buffer('buf', torch.zeros(2))
print(list(m.state_dict().keys())[:1])
del m.buf
print(list(m.state_dict().keys()))
m.p = nn.Parameter(torch.ones(1))
del m.p
print(len(list(m.parameters())))
try:
    del m.nothing
except AttributeError:
    print('AttributeError')

torch.manual_seed(0)
lin = nn.Linear(2, 2)
seen = []
h = lin.register_forward_hook(lambda mod, inp, out: seen.append((type(mod).__name__, len(inp), out.shape)))
lin(torch.ones(1, 2))
h.remove()
lin(torch.ones(3, 2))
print(seen)
h1 = lin.register_forward_pre_hook(lambda mod, inp: inp[0] * 0)
print(torch.equal(lin(torch.ones(1, 2)), lin.bias.unsqueeze(0)))
h1.remove()
h3 = lin.register_forward_hook(lambda mod, inp, out: out + 1)
h2 = lin.register_forward_hook(lambda mod, inp, out: out * 2)
x = torch.ones(1, 2)
print(torch.equal(lin(x), (F.linear(x, lin.weight, lin.bias) + 1) * 2))
h2.remove()
h3.remove()
print(torch.equal(lin(x), F.linear(x, lin.weight, lin.bias)))

# Activations recorded by hooks on every layer of a model.
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 3))
acts = {}
handles = []


def recorder(name):
    def hook(mod, inp, out):
        acts[name] = out.detach()
    return hook


for name, mod in model.named_children():
    handles.append(mod.register_forward_hook(recorder(name)))
model(torch.randn(5, 4))
print(sorted(acts.keys()), [list(acts[k].shape) for k in sorted(acts.keys())], round(acts['2'].sum().item(), 4))
for handle in handles:
    handle.remove()


def make(seed):
    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
    opt = torch.optim.Adam(net.parameters(), lr=0.05)
    return net, opt, torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)


def train(net, opt, sched, data, target, steps):
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(net(data), target)
        loss.backward()
        opt.step()
        sched.step()
        losses.append(round(loss.item(), 5))
    return losses


torch.manual_seed(5)
data = torch.randn(10, 3)
target = torch.randn(10, 1)
net, opt, sched = make(1)
print(train(net, opt, sched, data, target, 3))
sd = opt.state_dict()
print(sorted(sd.keys()), [g['params'] for g in sd['param_groups']], sorted(sd['state'].keys()),
      sorted(sd['state'][0].keys()), sd['param_groups'][0]['lr'])
net2, opt2, sched2 = make(2)
net2.load_state_dict(net.state_dict())
# A deep copy: PyTorch 2.x's load_state_dict takes the state tensors without copying (1.13,
# which records this oracle, copied them), so opt and opt2 would share their moments.
opt2.load_state_dict(copy.deepcopy(sd))
sched2.load_state_dict(sched.state_dict())
print(opt2.param_groups[0]['lr'], sched2.get_last_lr(), sched2.last_epoch)
print(train(net, opt, sched, data, target, 4))
print(train(net2, opt2, sched2, data, target, 4))
