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
u.retain_gra