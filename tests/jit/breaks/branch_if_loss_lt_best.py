# Best-checkpoint tracking with `if loss < best`: comparing a tensor and
# branching on it needs the value inside the hot loop.
# expect graphs: 0
# expect breaks: none
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
