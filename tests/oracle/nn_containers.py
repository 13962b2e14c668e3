# nn.Sequential and nn.ModuleList: indexing, len, iteration, append/extend, repr, parameter names.
import torch
import torch.nn as nn
torch.manual_seed(0)
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2), nn.Tanh())
print(seq)
print(len(seq), type(seq[0]).__name__, type(seq[-1]).__name__, seq[2].out_features)
print([n for n, _ in seq.named_parameters()])
sub = seq[:2]
print(type(sub).__name__, len(sub), sub)
x = torch.ones(3, 4)
print([round(v, 5) for v in seq(x).flatten().tolist()])
h = x
for layer in seq:
    h = layer(h)
# Not torch.equal: under the JIT a kernel compiled in the background can take
# over between the two computations, and Kiln's compiled tanh may differ from
# the eager one in the last bit (docs/jit.md, "Numerics").
print(torch.allclose(h, seq(x), rtol=1e-6, atol=0))
layers = nn.ModuleList([nn.Linear(2, 2), nn.Sigmoid()])
layers.append(nn.Linear(2, 1))
layers.extend([nn.ReLU(), nn.Identity()])
print(len(layers), [type(m).__name__ for m in layers], type(layers[-3]).__name__)
print(layers)
print([n for n, _ in layers.named_parameters()])
class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList()
        for i in range(3):
            self.blocks.append(nn.Linear(3, 3, bias=(i != 1)))
        self.out = nn.Sequential(nn.Linear(3, 1))

    def forward(self, x):
        for b in self.blocks:
            x = torch.relu(b(x))
        return self.out(x)
t = Tower()
print([n for n, _ in t.named_parameters()])
print(round(t(torch.ones(2, 3)).sum().item(), 5), len(t.blocks), t.blocks[1].bias)
print(list(t.state_dict().keys()))
try:
    seq[10]
except IndexError as e:
    print("IndexError:", e)
try:
    layers[7]
except IndexError as e:
    print("IndexError:", e)
empty = nn.Sequential()
print(empty, len(empty), torch.equal(empty(x), x))
