# torch.nn.utils: clip_grad_norm_ (norm types, returned total norm), clip_grad_value_,
# parameters_to_vector / vector_to_parameters, inside a small training loop.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters


def r(t):
    if t.dim() == 0:
        return round(t.item(), 4)
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
seq = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = list(seq.parameters())
v = parameters_to_vector(params)
print(v.shape, r(v[:5]))
vector_to_parameters(v * 2, params)
print(r(seq[0].bias), r(parameters_to_vector(seq.parameters())[-3:]))
for nt in [2.0, 1.0, 3.0, math.inf, 'inf']:
    for p in params:
        p.grad = torch.ones_like(p) * 0.5
    tn = clip_grad_norm_(params, 1.0, norm_type=nt)
    print('norm', nt, r(tn), r(params[0].grad[0]))
tn = clip_grad_norm_(seq[0].weight, 100.0)
print(r(tn), r(seq[0].weight.grad[0]))
clip_grad_value_(params, 0.01)
print(r(params[2].grad[0]))
for p in params:
    p.grad = None
print(r(torch.nn.utils.clip_grad_norm_(seq.parameters(), 0.5)))

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.randn(32, 4)
y = x.sum(1, keepdim=True) * 3
for step in range(8):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    if step % 2 == 1:
        nn.utils.clip_grad_value_(model.parameters(), clip_value=0.05)
    opt.step()
    print(step, round(loss.item(), 4), round(norm.item(), 4))
