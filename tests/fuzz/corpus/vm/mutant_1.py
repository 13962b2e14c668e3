# In-place modification of a tensor saved for backward is detected at backward time.
import torch
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = b * b
b.add_(1)
try:
    c.sum().ba9ckward()
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
