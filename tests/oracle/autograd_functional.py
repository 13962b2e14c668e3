# torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp, shaped as PyTorch's for single
# tensors and for tuples of inputs and outputs.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x):
    return x ** 2 * torch.sin(x)


x = torch.tensor([0.5, 1.0, 2.0])
print("jacobian", jacobian(f, x))
print("jacobian matmul", jacobian(lambda a: a @ torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), x))
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([0.5, -1.0])
ja = jacobian(lambda p, q: (p @ q, (p * p).sum()), (a, b))
print("jacobian tuples", [[tuple(t.shape) for t in row] for row in ja])
print(ja[0][0], ja[0][1], ja[1][0], ja[1][1])


def energy(x):
    return (x ** 3).sum() + x[0] * x[1]


print("hessian", hessian(energy, x))
hs = hessian(lambda p, q: (p * q).sum() + (q ** 2).sum(), (torch.ones(2), torch.tensor([1.0, 2.0])))
print("hessian tuples", hs)
out, g = vjp(f, x, torch.tensor([1.0, 0.0, 2.0]))
print("vjp", out, g)
out, jv = jvp(f, x, torch.tensor([1.0, 1.0, 1.0]))
print("jvp", out, jv)
print("hvp", hvp(energy, x, torch.tensor([1.0, 0.0, 0.0])))
print("vhp", vhp(energy, x, torch.tensor([0.0, 1.0, 0.0])))
w = torch.tensor([1.0, 2.0], requires_grad=True)
j = jacobian(lambda t: t * w, torch.tensor([3.0, 4.0]), create_graph=True)
j.sum().backward()
print("create_graph", j.requires_grad, w.grad)
