# Best-checkpoint tracking with `if loss < best`: comparing a tensor and
# branching on it needs the value inside the hot loop.
# Before the loop is hot (steps 0-1): backward (1 graph), in step 1 Adam's
# per-parameter update function (third call: 1 graph) and then the loop over
# parameters in Adam.step (hot since step 0's last back-edge: 1 graph). From
# step 2 (Module.__call__'s and Adam.step's third calls inlined) 1 graph per
# iteration, broken by `if loss < best` in each of steps 2-14.
# expect graphs: 4
# expect breaks: data_dependent_branch@25 x13
import torch
import torch.nn.functional as F

torch.manual_seed(5)
model = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(40, 3)
y = x.sum(dim=1, keepdim=True)
best = float("inf")
best_step = -1
for step in range(15):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    if loss < best:
        best = loss.detach()
        best_step = step
print("best step", best_step)
