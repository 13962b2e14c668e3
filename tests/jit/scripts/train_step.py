# A small training loop: forward, backward and SGD in one graph per iteration,
# with a loss read (item) every other step.
import torch
torch.manual_seed(0)
w = torch.randn(4, 3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
x = torch.randn(8, 4)
for step in range(6):
    loss = ((x @ w) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(step, round(loss.item(), 4))
