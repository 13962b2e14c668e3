# retain_graph, double backward errors, no_grad, detach, requires_grad_ and grad accumulation.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
print(x.grad.tolist())
y.backward()
print(x.grad.tolist())
z = (x.exp()).sum()
z.backward()
try:
    z.backward()
except RuntimeError as err:
    print("second backward:", type(err).__name__)
with torch.no_grad():
    w = x * 2
    print(w.requires_grad, w.grad_fn is None)
    x.mul_(10)
print(x.tolist(), x.requires_grad, x.is_leaf)
w2 = x * 2
print(w2.requires_grad)
with torch.no_grad():
    with torch.no_grad():
        inner = x + 1
    after_inner = x + 1
print(inner.requires_grad, after_inner.requires_grad, (x + 1).requires_grad)
d = x.detach()
print(d.requires_grad, d.is_leaf)
a = torch.ones(3)
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = torch.zeros(2)
b.requires_grad = True
(b * 3).sum().backward()
print(b.grad.tolist())
for step in range(3):
    (b * (step + 1)).sum().backward()
print(b.grad.tolist())
b.grad.zero_()
print(b.grad.tolist())
p = torch.tensor([2.0], requires_grad=True)
q = p * p
r1 = q * 3
r2 = q * 4
(r1 + r2).backward()
print(p.grad.tolist())
def f(t):
    with torch.no_grad():
        return t * 5
print(f(p).requires_grad, (p * 5).requires_grad)
try:
    torch.tensor([1.0, 2.0], requires_grad=True).mul(2).backward()
except RuntimeError as err:
    print("non-scalar:", type(err).__name__)
leaf = torch.tensor([1.0], requires_grad=True)
try:
    leaf.add_(1)
except RuntimeError as err:
    print("leaf in-place:", type(err).__name__)
int_t = torch.tensor([1, 2])
try:
    int_t.requires_grad_(True)
except RuntimeError as err:
    print("int requires_grad:", type(err).__name__)

# grad_fn objects: each node's class is named as PyTorch's, and
# next_functions walks the graph down to the leaves' AccumulateGrad nodes.
ga = torch.randn(3, requires_grad=True)
gb = torch.randn(3, requires_grad=True)
gout = (ga.exp() * gb + 1).sum()
print(type(gout.grad_fn).__name__, gout.grad_fn.name())


def walk(fn, depth):
    for nxt, idx in fn.next_functions:
        if nxt is None:
            print("  " * depth + "None", idx)
            continue
        print("  " * depth + type(nxt).__name__, idx)
        if type(nxt).__name__ == "AccumulateGrad":
            print("  " * depth + "  variable", list(nxt.variable.shape), nxt.variable.requires_grad)
        else:
            walk(nxt, depth + 1)


walk(gout.grad_fn, 1)
