# A plain training loop (no torch.compile) whose step counter changes every
# iteration: it feeds a learning-rate schedule, an input scale and an int
# multiplier, all Python numbers that become graph inputs. The loop's region
# opens at the back-edge ending its 2nd iteration (KILN_HOT_LOOPS=2), so it
# runs compiled from its 3rd iteration on, each iteration one run of one
# graph (forward, backward and update together): 18 runs of one graph for
# 20 iterations, no recompiles from the counter, and a bounded number of
# graphs (the first 2 iterations' backward and SGD loop, the code after it).
#
# expect in loop:*<module> graphs: 1 runs=18 ir~~"= mm\(" ir~~"= add_\(%\d+, .*!mutates .*optim\.py"
# expect in loop:*<module> graphs: <=3
# expect graphs: <=8
# expect recompiles: 0
# expect eager_runs: 0
# expect breaks: <=1
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 3)
y = torch.randn(8, 2)
losses = []
for step in range(20):
    opt.param_groups[0]['lr'] = 0.1 * (0.95 ** step)
    out = model(x * (1.0 + 0.01 * step))
    loss = F.mse_loss(out, y) * (1 + step % 2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.detach())
print(["%.5f" % v for v in torch.stack(losses).tolist()])
print(["%.5f" % v for v in model.weight.detach().flatten().tolist()])
print(["%.5f" % v for v in model.bias.detach().tolist()])
