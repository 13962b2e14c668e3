import torch
@torch.compile
def f(x):
    return x * 2 + 1
print(f(torch.ones(2)), f(torch.ones(3)))
g = torch.compile(lambda x: x.relu())
print(g(torch.tensor([-1.0, 1.0])))
@torch.compiler.disable
def h(x):
    return x
print(h(3))
for i in range(5):
    print(f(torch.full((2,), float(i))))
