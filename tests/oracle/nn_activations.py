# The F activations (values, gradients, inplace=) and their nn modules' reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


x = torch.tensor([-3.5, -1.0, -0.2, 0.0, 0.3, 1.0, 2.5, 7.0])
fns = [('elu', lambda t: F.elu(t)), ('elu a', lambda t: F.elu(t, alpha=0.5)), ('selu', F.selu),
       ('celu', lambda t: F.celu(t, 2.0)), ('hardtanh', lambda t: F.hardtanh(t, -2.0, 2.0)),
       ('relu6', F.relu6), ('hardswish', F.hardswish), ('hardsigmoid', F.hardsigmoid),
       ('softsign', F.softsign), ('logsigmoid', F.logsigmoid), ('mish', F.mish),
       ('threshold', lambda t: F.threshold(t, 0.5, -1.0)), ('tanhshrink', F.tanhshrink),
       ('softshrink', F.softshrink), ('hardshrink', lambda t: F.hardshrink(t, 1.0)),
       ('softmin', lambda t: F.softmin(t, dim=0)), ('softplus', lambda t: F.softplus(t, beta=2.0)),
       ('leaky_relu', lambda t: F.leaky_relu(t, 0.2))]
for name, fn in fns:
    xg = x.clone().requires_grad_()
    y = fn(xg)
    (y * torch.arange(1.0, 9.0)).sum().backward()
    print(name, r(y))
    print(name, 'grad', r(xg.grad))

# Large inputs: no overflow in the values or NaN in the gradients.
big = torch.tensor([100.0, -100.0, 30.0])
for fn in [F.softplus, F.mish, F.elu, F.selu, F.logsigmoid, F.celu]:
    b = big.clone().requires_grad_()
    y = fn(b)
    y.sum().backward()
    print(r(y), [round(v, 4) for v in b.grad.tolist()[::2]])

z = torch.arange(-6.0, 6.0).reshape(2, 3, 2)
print('prelu', r(F.prelu(z, torch.tensor([0.25, 0.5, 0.1]))), r(F.prelu(z, torch.tensor([0.2]))))
print('glu', r(F.glu(z)), r(F.glu(torch.arange(8.0).reshape(4, 2), dim=0)))

y = torch.tensor([-1.0, 2.0])
out = F.elu(y, inplace=True)
print(out is y, y)
y = torch.tensor([-1.0, 2.0, 9.0])
print(F.relu6(y, inplace=True) is y, y)
F.hardtanh(y, inplace=True)
print(y)

torch.manual_seed(0)
x = torch.randn(2, 4, 6)
mods = [nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.ELU(), nn.ELU(alpha=0.5), nn.SELU(), nn.CELU(1.5),
        nn.Softplus(beta=2, threshold=10), nn.Mish(), nn.Hardtanh(-0.5, 0.5), nn.ReLU6(), nn.Hardswish(),
        nn.Hardsigmoid(), nn.Softsign(), nn.LogSigmoid(), nn.GLU(), nn.GLU(dim=1), nn.PReLU(), nn.PReLU(4, init=0.1),
        nn.Threshold(0.1, 20.0), nn.Tanhshrink(), nn.Softshrink(), nn.Hardshrink(0.3), nn.Softmin(dim=1),
        nn.ReLU6(inplace=True), nn.SELU(inplace=True), nn.Hardtanh(min_val=-2.0, max_val=2.0, inplace=True)]
for m in mods:
    print(m, r(m(x.clone())[0, 0]))

# PReLU's weight is learnt.
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.PReLU(4), nn.Linear(4, 2), nn.ELU())
print(model)
print([name for name, _ in model.named_parameters()])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 3)
for step in range(5):
    opt.zero_grad()
    loss = model(data).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), r(model[1].weight))

try:
    F.glu(torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    F.prelu(torch.ones(2, 3), torch.ones(2))
except RuntimeError as e:
    print('prelu error')
