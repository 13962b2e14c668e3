import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad, x.is_leaf, y.grad_fn is not None, y.requires_grad)
z = (x.exp() * 2).mean()
z.backward(retain_graph=True)
z.backward()
print(x.grad)
x.grad = None
w = x.detach().clone().requires_grad_()
with torch.no_grad():
    print((w * 2).requires_grad)
u = w * 3
u.retain_grad()
u.sum().backward()
print(u.grad, w.grad)
for f in [lambda: y.backward(), lambda: x.backward(), lambda: torch.ones(2).backward(), lambda: x.add_(1),
          lambda: torch.tensor([1, 2], requires_grad=True), lambda: (x * 2).backward(torch.ones(2))]:
    try:
        f()
        print("ok")
    except Exception as e:
        print(type(e).__name__)
a = torch.ones(2, requires_grad=True)
b = a * 2
c = b * b
b.add_(1)
try:
    c.sum().backward()
except RuntimeError:
    print("version")
@torch.no_grad()
def f(t):
    return t * 2
print(f(a).requires_grad, torch.is_grad_enabled())
with torch.enable_grad():
    print(torch.is_grad_enabled())
