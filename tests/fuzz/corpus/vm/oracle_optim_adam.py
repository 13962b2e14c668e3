# torch.optim.Adam: default hyper-parameters, weight decay, amsgrad, custom betas/eps.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(12, 4)
Y = torch.randn(12, 2)
def run(**kw):
    torch.manual_seed(2)
    model = nn.Sequential(nn.Linear(4, 6), nn.GELU(), nn.Linear(6, 2))
    opt = torch.optim.Adam(model.parameters(), **kw)
    losses = []
    for step in range(10):
        opt.zero_grad()
        loss = F.mse_loss(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 6))
    print(kw, losses)
    print("  final", [round(v, 6) for v in model[0].bias.tolist()])
run()
run(lr=0.01)
run(lr=0.01, weight_decay=0.1)
run(lr=0.02, amsgrad=True)
run(lr=0.01, betas=(0.8, 0.99), eps=1e-6)
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for step in range(5):
    opt.zero_grad()
    ((w - 3) ** 2).sum().backward()
    opt.step()
    print(step, [round(v, 6) for v in w.tolist()])
print(opt.param_groups[0]["betas"], opt.param_groups[0]["eps"], opt.param_groups[0]["lr"])
try:
    torch.optim.Adam([w], betas=(1.0, 0.999))
except ValueError as e:
    print("ValueError:", e)
