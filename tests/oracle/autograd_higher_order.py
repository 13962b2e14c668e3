# Higher-order derivatives: torch.autograd.grad(create_graph=True) and backward(create_graph=True)
# give gradients that are themselves differentiable: second derivatives of pointwise functions,
# a WGAN-style gradient penalty, a physics-informed loss with u_xx, Hessian-vector products.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
for name, f in [("cube", lambda t: t ** 3), ("sin", torch.sin), ("exp", torch.exp), ("log", torch.log),
                ("tanh", torch.tanh), ("sigmoid", torch.sigmoid), ("softplus", F.softplus),
                ("sqrt", torch.sqrt), ("recip", lambda t: 1 / t), ("mul_cos", lambda t: t * torch.cos(t))]:
    (g,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    print(name, g.detach(), h)

# Third derivative of x^4 through three nested grads.
(g1,) = torch.autograd.grad((x ** 4).sum(), x, create_graph=True)
(g2,) = torch.autograd.grad(g1.sum(), x, create_graph=True)
(g3,) = torch.autograd.grad(g2.sum(), x)
print("x^4 derivatives", g1.detach(), g2.detach(), g3)

# backward(create_graph=True): .grad has a history; differentiating it accumulates into .grad.
w = torch.tensor([1.0, -2.0], requires_grad=True)
(w ** 3).sum().backward(create_graph=True)
gw = w.grad
print("grad has history", gw.requires_grad, gw.detach())
w.grad = None
gw.sum().backward()
print("second", w.grad)

# Hessian-vector product of a quadratic form and of a small network's loss.
A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
z = torch.tensor([1.0, -1.0], requires_grad=True)
(gz,) = torch.autograd.grad(0.5 * z @ A @ z, z, create_graph=True)
v = torch.tensor([1.0, 2.0])
(hv,) = torch.autograd.grad(gz @ v, z)
print("hvp", gz.detach(), hv)

# Gradient penalty (WGAN-GP) on a LeakyReLU critic, trained two steps.
torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
opt = torch.optim.Adam(critic.parameters(), lr=1e-2)
real = torch.randn(6, 3)
for step in range(3):
    inp = real.clone().requires_grad_(True)
    out = critic(inp)
    (grads,) = torch.autograd.grad(out.sum(), inp, create_graph=True)
    penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    loss = -out.mean() + 10 * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("gp step", step, round(loss.item(), 5), round(penalty.item(), 5))
print("critic grad", critic[0].weight.grad[0])

# A physics-informed loss: u'' + u = 0 on a tanh network, with u_x and u_xx by autograd.
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
xs = torch.linspace(0, 1, 12).reshape(-1, 1)
for step in range(4):
    xr = xs.clone().requires_grad_(True)
    u = net(xr)
    (u_x,) = torch.autograd.grad(u.sum(), xr, create_graph=True)
    (u_xx,) = torch.autograd.grad(u_x.sum(), xr, create_graph=True)
    boundary = (net(torch.zeros(1, 1)) - 1) ** 2
    loss = ((u_xx + u) ** 2).mean() + boundary.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("pinn step", step, round(loss.item(), 5))

# Second derivatives through softmax/log_softmax and mse_loss.
s = torch.tensor([[0.1, 0.7, -0.3]], requires_grad=True)
(gs,) = torch.autograd.grad((F.log_softmax(s, dim=1) * torch.tensor([[1.0, 2.0, 3.0]])).sum(), s,
                            create_graph=True)
print("log_softmax second", torch.autograd.grad((gs ** 2).sum(), s)[0])
(gm,) = torch.autograd.grad(F.mse_loss(s, torch.zeros(1, 3)), s, create_graph=True)
print("mse second", torch.autograd.grad(gm.sum(), s)[0])
