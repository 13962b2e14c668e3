# A guard failure is never a wrong answer: one compiled function is called
# with every guarded property changed in turn (shape, dtype, strides of a
# transposed input, requires_grad, an int constant, the length of a
# Tensor[] argument to torch.cat), each call differing from the previous one
# in that property only, and prints its result every time; the checker
# requires the same output as the interpreter. Each recompile names the
# guard that changed. Calls that repeat earlier inputs hit earlier graphs.
#
# expect regions: 2
# expect in compiled:mix graphs: 7
# expect in compiled:mix runs: 9
# expect recompiles: 6
# expect recompiles: 1 guard~"`mul`" guard~"size of dim 0" expected=3 actual=5 made_dynamic=true
# expect recompiles: 1 guard~"`mul`" guard~"dtype" expected=torch.float32 actual=torch.float64
# expect recompiles: 1 guard~"`mul`" guard~"stride of dim 1" expected=contiguous actual=5
# expect recompiles: 1 guard~"`mul`" guard~"requires_grad" expected=False actual=True
# expect recompiles: 1 guard~"`sum`" guard~"argument `dim`" expected=0 actual=1
# expect recompiles: 1 guard~"`cat`" guard~"length of the list" expected=2 actual=3
# expect recompiles: 1 made_dynamic=true
# expect eager_runs: 0
# expect breaks: 0
import torch


def mix(x, parts, dim):
    c = torch.cat(parts)
    s = (x * 1.5).sum(dim=dim)
    return s * c.sum() + 1.0


compiled = torch.compile(mix)
a = torch.tensor([1.0, 2.0])
b = torch.tensor([0.5, -1.0, 4.0])
d = torch.tensor([10.0])
x34 = torch.arange(12.0).reshape(3, 4)
x54 = torch.arange(20.0).reshape(5, 4) - 7.0

print("base", compiled(x34, [a, b], 0))
print("shape", compiled(x54, [a, b], 0))
print("dtype", compiled(x54.double(), [a, b], 0))
strided = (torch.arange(20.0).reshape(4, 5) * 0.25).double().t()
print("strides", strided.stride(), compiled(strided, [a, b], 0))
leaf = strided.detach().requires_grad_(True)
out = compiled(leaf, [a, b], 0)
print("requires_grad", out.detach())
out.sum().backward()
print("grad", leaf.grad)
print("constant", compiled(leaf, [a, b], 1).detach())
print("list length", compiled(leaf, [a, b, d], 1).detach())
print("base again", compiled(x34, [a, b], 0))
print("strides again", compiled(strided, [a, b], 0))
