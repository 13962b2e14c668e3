# In-place modification of a tensor saved for backward is detected at backward time.
import torch
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = b * b
b.add_(1)
try:
    c.sum().backward()
    print("no error")
except RuntimeError as err:
    print("saved tensor modified:", type(err).__name__)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.mul_(2)
try:
    y.sum().backward()
    print("no error")
except RuntimeError as err:
    print("exp output modified:", type(err).__name__)
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p * 3
q.add_(1)
r = q.sum()
r.backward()
print("add_ on unsaved output ok:", p.grad.tolist())
m = torch.tensor([1.0, -2.0], requires_grad=True)
n = m + 0
n.mul_(m)
n.sum().backward()
print(m.grad.tolist())
v = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = v.clone()
w[0] = 0.0
(w * w).sum().backward()
print(v.grad.tolist())
s = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
t = s * 1
t[1:] *= 10
t.sum().backward()
print(s.grad.tolist())
k = torch.tensor([2.0], requires_grad=True)
l = k.sigmoid()
l.add_(1)
try:
    l.backward()
    print("no error")
except RuntimeError as err:
    print("sigmoid output modified:", type(err).__name__)
u = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    u.add_(5)
(u * u).sum().backward()
print(u.tolist(), u.grad.tolist())

# An in-place op whose other operand is self (t.mul_(t)): the formula would
# read the overwritten value, so backward must fail the version check.
sq_x = torch.tensor([1.5410, -0.2934, -2.1788], requires_grad=True)
sq_t = sq_x.clone()
sq_t.mul_(sq_t)
try:
    sq_t.sum().backward()
    print('t.mul_(t) backward: no error', sq_x.grad)
except RuntimeError as e:
    print('t.mul_(t) backward: RuntimeError, modified by an inplace operation:',
          'modified by an inplace operation' in str(e))
