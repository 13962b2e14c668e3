# torch.autograd.grad and torch.autograd.backward: gradients w.r.t. chosen
# tensors (leaves and intermediates) without touching any .grad, unused
# inputs, grad_outputs, and input saliency inside a loop the JIT captures.
import torch
import torch.nn as nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = (x * w).sum() + (x ** 2).sum()
gx, = torch.autograd.grad(y, x, retain_graph=True)
print(gx, x.grad, w.grad)
gx, gw = torch.autograd.grad(y, [x, w])
print(gx, gw)
z = torch.ones(2, requires_grad=True)
h = x * 2
print(torch.autograd.grad(h.sum(), [h, x, z], allow_unused=True))
print(torch.autograd.grad((x * 3).sum(), x, allow_unused=True))
print(torch.autograd.grad(x * x, x, grad_outputs=torch.ones(3)))
print(torch.autograd.grad([(x * 2).sum(), (w * x).sum()], [x]))
a = torch.arange(3.0, requires_grad=True)
torch.autograd.backward([(a * 2).sum(), (a * 3).sum()])
print(a.grad)
torch.autograd.backward(a * a, grad_tensors=torch.tensor([1.0, 0.5, 0.25]))
print(a.grad)
try:
    torch.autograd.grad((x * 2).sum(), z)
except RuntimeError as e:
    print("RuntimeError", "allow_unused=True" in str(e))

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
for step in range(4):
    inp = torch.randn(5, 4, requires_grad=True)
    out = model(inp).sum()
    saliency, = torch.autograd.grad(out, inp)
    print(step, saliency.abs().sum(dim=1), model[0].weight.grad)
