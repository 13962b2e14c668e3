# A training loop that logs loss.item() every few steps. Each logged step
# reads the loss into Python inside the hot loop's region.
# Steps 0-1 run before the loop is hot: each backward there is the backward
# region's graph (1 graph, 2 runs); the prelude's SGD loop over 2 parameters
# is hot from step 0's last back-edge, so step 1's bias update is 1 graph.
# From the back-edge after step 1 every iteration (steps 2-19) is one graph
# (same ops: 1 graph, Module.__call__'s and SGD.step's third calls inlined);
# at steps 5, 10, 15 the .item() reads the loss at the end of it.
# expect graphs: 3
# expect breaks: item@27 x3
# expect region: loop loop at item_loss_every_n.py:21 in <module>
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(64, 8)
y = x @ torch.randn(8, 1) + 0.1
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for step in range(20):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step}: loss {loss.item():.4f}")
