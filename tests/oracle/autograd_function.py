# torch.autograd.Function: custom forward/backward with ctx.save_for_backward,
# several outputs, non-tensor inputs, a straight-through estimator, no_grad,
# and a custom activation inside a training loop the JIT captures.
import torch
from torch.autograd import Function


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * y


class ScaledMul(Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.save_for_backward(a, b)
        ctx.scale = scale
        return a * b * scale, a + b

    @staticmethod
    def backward(ctx, g1, g2):
        a, b = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        return g1 * b * ctx.scale + g2, g1 * a * ctx.scale + g2, None


class Clip(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clamp(-1, 1)

    @staticmethod
    def backward(ctx, g):
        return g  # straight-through


x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
y = Exp.apply(x)
print(y)
y.sum().backward()
print(x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
p, s = ScaledMul.apply(a, b, 0.5)
print(p, s)
(p.sum() + s.sum()).backward()
print(a.grad)
z = torch.tensor([-3.0, 0.2, 5.0], requires_grad=True)
c = Clip.apply(z)
print(c)
(c * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(z.grad)
with torch.no_grad():
    print(Exp.apply(x))
print(Exp.apply(torch.ones(2)))
torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)
for i in range(3):
    out = Exp.apply(torch.ones(4, 3) @ w).sum()
    out.backward()
print(w.grad)


class Swish(Function):
    @staticmethod
    def forward(ctx, x):
        s = torch.sigmoid(x)
        ctx.save_for_backward(x, s)
        return x * s

    @staticmethod
    def backward(ctx, g):
        x, s = ctx.saved_tensors
        return g * (s + x * s * (1 - s))


torch.manual_seed(1)
l1 = torch.nn.Linear(4, 8)
l2 = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(list(l1.parameters()) + list(l2.parameters()), lr=0.1)
xs = torch.randn(16, 4)
ys = xs.sum(dim=1, keepdim=True)
for step in range(5):
    opt.zero_grad()
    pred = l2(Swish.apply(l1(xs)))
    loss = ((pred - ys) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), pred.grad_fn is not None)
