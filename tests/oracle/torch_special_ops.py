# torch.special, the gamma family, sinc, isin, fliplr/flipud, the geometric,
# log-normal and Cauchy samplers, and which overload a Python number selects
# (it shows in grad_fn names).
import torch

# diag keeps an integer tensor's dtype.
print(torch.diag(torch.tensor([1, 2, 3])), torch.diag(torch.tensor([True, False]), 1))
print(torch.diag(torch.tensor([1.5, -2.0]), -1))

# A Python number picks the Scalar overload, as PyTorch's argument parser does.
# (Nodes by name, values detached: with a device suffix the lines would wrap.)
def show(t):
    print(t.grad_fn.name(), t.detach().cpu())


x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
show(x ** 2), show(x.pow(3)), show(torch.pow(x, 0.5))
show(x ** torch.tensor(2.0)), show(2 ** x)
show(x.masked_fill(torch.tensor([True, False, True]), 0.0))
show(x.masked_fill(torch.tensor([True, False, True]), torch.tensor(-1.0)))
(x ** 2).sum().backward()
print(x.grad)

# fliplr / flipud
m = torch.arange(6).view(2, 3)
print(torch.fliplr(m), torch.flipud(m), m.fliplr(), torch.flipud(torch.arange(3)))
try:
    torch.fliplr(torch.arange(3))
except RuntimeError as e:
    print("RuntimeError:", e)

# sinc and its derivative, 0 included
s = torch.tensor([-1.5, -0.25, 0.0, 0.3, 2.0], requires_grad=True)
y = torch.sinc(s)
show(y)
y.sum().backward()
print(s.grad)
print(torch.sinc(torch.tensor([1, 2])), torch.special.sinc(torch.tensor([0.5], dtype=torch.float64)))

# isin
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(torch.isin(a, torch.tensor([2, 6, 9])), torch.isin(a, torch.tensor([2, 6]), invert=True))
print(torch.isin(a, 5), torch.isin(torch.tensor([1.0, 2.5]), torch.tensor([2.5, 3])), torch.isin(a, torch.tensor([], dtype=torch.long)))
print(torch.isin(torch.tensor([1, 2]), torch.tensor([2.0, 7.5])))

# lgamma, digamma, polygamma: values (negative, integer and tiny arguments too) and derivatives
g = torch.tensor([0.1, 0.5, 1.0, 2.5, 7.25, 30.0, -0.5, -2.5], dtype=torch.float64, requires_grad=True)
show(torch.lgamma(g))
show(torch.digamma(g))
show(torch.polygamma(1, g))
torch.lgamma(g).sum().backward()
print(g.grad)
d = torch.tensor([0.75, 3.0, -1.25], dtype=torch.float64, requires_grad=True)
torch.digamma(d).sum().backward()
print(d.grad)
print(torch.digamma(torch.tensor([0.0, -1.0, -2.0, float('inf'), float('nan')])))
print(torch.lgamma(torch.tensor([0.0, -1.0, 1e-3, 100.0])))
print(torch.lgamma(torch.tensor([3, 4])), torch.tensor([4.0]).lgamma(), torch.tensor([4.0]).digamma())
f = torch.tensor([1.0, 2.0]); f.lgamma_(); print(f)

# torch.special aliases
t = torch.tensor([-1.0, 0.25, 2.0])
print(torch.special.expit(t), torch.special.erf(t), torch.special.erfc(t), torch.special.gammaln(t.abs()))
print(torch.special.psi(t.abs()), torch.special.digamma(torch.tensor([1.0])), torch.special.polygamma(1, torch.tensor([1.0])))
print(torch.special.logit(torch.tensor([0.25, 0.5])), torch.special.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])))
print(torch.special.logsumexp(t, 0), torch.special.softmax(t, 0), torch.special.log_softmax(t, dim=0))
print(torch.special.expm1(t), torch.special.exp2(t), torch.special.log1p(t.abs()), torch.special.round(t * 1.5))
print(torch.special.erfinv(torch.tensor([0.5])))

# In-place samplers: values and the draws they take from the generator
torch.manual_seed(0)
print(torch.empty(4).geometric_(0.3), torch.empty(3, dtype=torch.float64).geometric_(0.8))
print(torch.empty(2, 2, dtype=torch.long).geometric_(0.5))
print(torch.empty(5).log_normal_(), torch.empty(3, dtype=torch.float64).log_normal_(0.5, 0.25))
print(torch.empty(4).cauchy_(), torch.empty(2).cauchy_(1.0, 3.0))
print(torch.rand(3))
try:
    torch.empty(2).geometric_(1.5)
except RuntimeError as e:
    print("RuntimeError:", e)
