# torch.nn.init: the initializers draw the same numbers as PyTorch's.
import math
import torch
import torch.nn as nn
from torch.nn import init
def r(t):
    return [round(v, 6) for v in t.flatten().tolist()]
w = torch.empty(3, 4)
torch.manual_seed(0)
nn.init.uniform_(w, -0.5, 0.5)
print(r(w))
nn.init.normal_(w, 0.0, 0.02)
print(r(w))
init.zeros_(w)
print(r(w))
init.ones_(w)
print(r(w))
init.constant_(w, 0.25)
print(r(w))
torch.manual_seed(1)
init.xavier_uniform_(w)
print(r(w))
init.xavier_normal_(w, gain=2.0)
print(r(w))
init.kaiming_uniform_(w, a=math.sqrt(5))
print(r(w))
init.kaiming_uniform_(w, nonlinearity="relu")
print(r(w))
init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(r(w))
print(init.calculate_gain("relu"), init.calculate_gain("tanh"), init.calculate_gain("linear"),
      init.calculate_gain("leaky_relu", 0.2))
p = nn.Parameter(torch.empty(2, 2))
init.normal_(p)
print(p.requires_grad, p.grad_fn is None, p.is_leaf)
torch.manual_seed(2)
lin = nn.Linear(5, 3)
init.xavier_uniform_(lin.weight)
init.zeros_(lin.bias)
print(r(lin.weight), r(lin.bias))
def init_weights(m):
    if isinstance(m, nn.Linear):
        init.normal_(m.weight, std=0.02)
        init.zeros_(m.bias)
torch.manual_seed(3)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
net.apply(init_weights)
print(r(net[0].weight), r(net[2].weight), r(net[2].bias))
try:
    init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print("ValueError:", e)
