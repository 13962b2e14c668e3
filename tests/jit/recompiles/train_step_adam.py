# One torch.compile'd training step with Adam: forward, loss, backward and
# the Adam update are one graph. The first step creates Adam's state
# (zeros_like), so the second step is one recompile (the ops differ, no
# constant or shape does); steps 3..10 hit that second graph. Adam's step
# counter and bias corrections are Python numbers that change every step:
# graph inputs, not recompiles. Ten steps land on the same parameters as
# under --jit=off (the checker compares the printed values).
#
# expect regions: 1
# expect in compiled:train_step graphs: 2
# expect in compiled:train_step runs: 10
# expect in compiled:train_step graphs: 1 runs=9
# expect recompiles: 1
# expect recompiles: 1 guard~": op" made_dynamic=false
# expect breaks: 0
# The forward: Linear's mm (in the prelude's F.linear), tanh and the loss.
# expect in compiled:train_step every graph: ir~~"= mm\(.*# <prelude>/nn\.py" ir~~"= tanh\(" ir~~"= mean\(.*# {@forward}:"
# The backward, at loss.backward(): the weight grads' transpose + mm, tanh's derivative.
# expect in compiled:train_step every graph: ir~~"= transpose\(.*# {@backward}:" ir~~"= mm\(.*# {@backward}:" ir~~"= tanh_backward\(.*# {@backward}:"
# The update: Adam's moments (mul_, add_, sqrt) and an in-place add_ on each parameter.
# expect in compiled:train_step every graph: ir~~"= add_\(%\d+, .*!mutates .*optim\.py" ir~~"mutated \(%\d+ <- %" ir~~"= sqrt\(.*optim\.py" ir~~"= mul_\(.*optim\.py"
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


torch.manual_seed(0)
model = TwoLayer()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.randn(16, 4)
y = torch.randn(16, 2)


@torch.compile
def train_step(x, y):
    loss = F.mse_loss(model(x), y)  # @forward
    opt.zero_grad()
    loss.backward()  # @backward
    opt.step()
    return loss


l0 = train_step(x, y)
l1 = train_step(x, y)
l2 = train_step(x, y)
l3 = train_step(x, y)
l4 = train_step(x, y)
l5 = train_step(x, y)
l6 = train_step(x, y)
l7 = train_step(x, y)
l8 = train_step(x, y)
l9 = train_step(x, y)
print("losses", ["%.5f" % v for v in torch.stack([l0, l1, l2, l3, l4, l5, l6, l7, l8, l9]).tolist()])
print("fc1.weight", ["%.5f" % v for v in model.fc1.weight.detach().flatten().tolist()])
print("fc1.bias", ["%.5f" % v for v in model.fc1.bias.detach().tolist()])
print("fc2.weight", ["%.5f" % v for v in model.fc2.weight.detach().flatten().tolist()])
print("fc2.bias", ["%.5f" % v for v in model.fc2.bias.detach().tolist()])
