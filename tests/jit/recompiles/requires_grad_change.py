# An input that starts to require grad: a recompile whose failed guard is
# requires_grad (the graph must now record for autograd); the gradient is the
# same with and without the JIT.
#
# expect regions: 2
# expect in compiled:energy graphs: 2
# expect in compiled:* recompiles: 1
# expect recompiles: 1 guard~"requires_grad" expected=False actual=True made_dynamic=false
# expect breaks: 0
import torch


def energy(x, w):
    return ((x @ w) ** 2).sum()


compiled = torch.compile(energy)
w = torch.tensor([[1.0, 0.5], [-0.25, 2.0], [0.0, 1.0]])
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.25]])
print(compiled(x, w))
w.requires_grad_(True)
e = compiled(x, w)
print(e)
e.backward()
print(w.grad)
