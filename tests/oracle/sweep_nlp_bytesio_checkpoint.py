# torch.save / torch.load through io.BytesIO: a model and optimizer checkpoint
# kept in memory, seek/tell, and a copy made from getvalue().
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 3))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
idx = torch.tensor([1, 2, 3])
model(idx).sum().backward()
opt.step()

buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 3, 'vocab': {'a': 0, 'b': 1}}, buf)
print(buf.tell() > 0, buf.tell() == len(buf.getvalue()))
buf.seek(0)
ckpt = torch.load(buf)
print(sorted(ckpt.keys()), ckpt['epoch'], ckpt['vocab'])
print(list(ckpt['model'].keys()), type(ckpt['model']).__name__)
print(ckpt['opt']['param_groups'][0]['lr'], sorted(ckpt['opt']['state'][0].keys()))

restored = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 3))
print(restored.load_state_dict(ckpt['model']))
print(torch.equal(restored(idx), model(idx)))
opt2 = torch.optim.Adam(restored.parameters(), lr=0.5)
opt2.load_state_dict(ckpt['opt'])
print(opt2.param_groups[0]['lr'], opt2.state[restored[1].bias]['step'].item())

copy = io.BytesIO(buf.getvalue())
t = torch.load(copy, weights_only=True)
print(t['model']['1.bias'].tolist() == model[1].bias.tolist())

with io.BytesIO() as b:
    torch.save(torch.arange(6).reshape(2, 3), b)
    b.seek(0)
    print(torch.load(b).tolist())
print(b.closed)

# Scheduler states go into checkpoints too; MultiStepLR's holds a Counter.
sched = torch.optim.lr_scheduler.MultiStepLR(opt, [2, 4, 4])
lam = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e)
sbuf = io.BytesIO()
torch.save({'ms': sched.state_dict(), 'lam': lam.state_dict()}, sbuf)
sbuf.seek(0)
states = torch.load(sbuf)
print(states['ms']['milestones'], states['lam']['lr_lambdas'], states['ms']['last_epoch'])
sched2 = torch.optim.lr_scheduler.MultiStepLR(opt, [1])
sched2.load_state_dict(states['ms'])
print(sched2.milestones, type(sched2.milestones).__name__)
