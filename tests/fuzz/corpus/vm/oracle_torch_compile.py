# torch.compile keeps the semantics of the identity: compiled functions and modules
# compute exactly what the uncompiled ones do.
import torch
import torch.nn as nn

@torch.compile
def f(x, y):
    return (x * y).sum() + 1

def g(x):
    return torch.relu(x) * 2

@torch.compile()
def h(x):
    return x - 1

@torch.compiler.disable
def k(x):
    return x + 100

cg = torch.compile(g)
x = torch.tensor([1.0, -2.0, 3.0])
print(f(x, x).item(), cg(x).tolist(), g(x).tolist(), h(x).tolist(), k(x).tolist())
torch.manual_seed(0)
lin = nn.Linear(3, 2)
clin = torch.compile(lin)
print([round(v, 6) for v in clin(x).tolist()] == [round(v, 6) for v in lin(x).tolist()])
for i in range(3):
    x = f(x, x) * x * 0.1
print([round(v, 3) for v in x.tolist()])
