# Early stopping: stop when the loss improved by less than a tolerance,
# tested on tensors, inside a hot training loop. Before the loop is hot
# (steps 0-1): backward (1 graph); SGD.step's third call is inlined. The loss
# shrinks by 0.16 a step, so the tolerance stops the loop at step 7: the
# comparison breaks the iteration graph (1 graph) in steps 2-7.
# expect graphs: 2
# expect breaks: data_dependent_branch@22 x6
# expect output: stopped at step 7
import torch

torch.manual_seed(6)
w = torch.zeros(4, requires_grad=True)
target = torch.tensor([1.0, -2.0, 0.5, 3.0])
opt = torch.optim.SGD([w], lr=0.3)
prev = torch.tensor(float("inf"))
stopped = 50
for step in range(50):
    opt.zero_grad()
    loss = ((w - target) ** 2).sum()
    loss.backward()
    opt.step()
    if (prev - loss).abs() < 1e-3:
        stopped = step
        break
    prev = loss.detach()
print("stopped at step", stopped)
