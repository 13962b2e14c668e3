# torch.save of whole modules and objects (pickle's NEWOBJ/BUILD, shared
# references, weights_only's refusal), and out= on torch's functions: the
# "Save and Load the Model" and "Tensors" tutorials' idioms.
import io
import os
import warnings
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.stack = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.BatchNorm1d(6), nn.Linear(6, 3))
        self.head = self.stack[3]  # one module under two names
        self.act = torch.relu       # a torch function stored by reference
        self.tag = ('net', 3)

    def forward(self, x):
        return self.stack(self.flatten(x))


class Box:
    def __init__(self, w):
        self.w = w
        self.me = self  # a cycle

    def __getstate__(self):
        return {'w': self.w * 2, 'me': self}

    def __setstate__(self, state):
        self.w = state['w'] + 1
        self.me = state['me']


def scale(x):
    return x * 3


torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 2, 4)
loss = model(x).square().mean()
loss.backward()
opt.step()
model.eval()

buf = io.BytesIO()
torch.save(model, buf)
buf.seek(0)
m2 = torch.load(buf, weights_only=False)
print(type(m2).__name__, m2.training, m2.tag, m2.act is torch.relu, m2.head is m2.stack[3])
print(m2)
print(torch.equal(m2(x), model(x)), [round(v, 4) for v in m2(x)[0].tolist()])
print(m2.stack[2].running_mean.tolist() == model.stack[2].running_mean.tolist())
print([n for n, _ in m2.named_parameters()])
print(sum(p.numel() for p in m2.parameters()), m2.stack[0].weight.requires_grad)
m2.train()
opt2 = torch.optim.SGD(m2.parameters(), lr=0.1)
m2(x).sum().backward()
opt2.step()
print(round(m2.stack[0].weight.sum().item(), 4), m2.stack[0].weight.grad is not None)

# a file path, and the default weights_only=True refusing the script's class
path = '/tmp/kiln_torch_save_module_' + str(os.getpid()) + '.pth'
torch.save(model, path)
try:
    torch.load(path)
except Exception as e:
    print(type(e).__name__, type(e).__module__, str(e).split('\n')[-3].strip()[:110])
with torch.serialization.safe_globals([Net]):
    try:
        torch.load(path)
    except Exception as e:
        print(type(e).__name__, 'next global:', str(e).split('GLOBAL ')[1].split(' ')[0])
print(type(torch.load(path, weights_only=False)).__name__)
torch.save(model.state_dict(), path)
m3 = Net()
print(m3.load_state_dict(torch.load(path, weights_only=True)))
os.remove(path)

# objects with __getstate__/__setstate__, cycles, functions and classes by name
buf = io.BytesIO()
torch.save({'box': Box(5), 'fn': scale, 'cls': Net, 'shared': [model.head.bias] * 2}, buf)
buf.seek(0)
back = torch.load(buf, weights_only=False)
print(back['box'].w, back['box'].me is back['box'], back['fn'](2), back['cls'] is Net)
print(back['shared'][0] is back['shared'][1], torch.equal(back['shared'][0], model.head.bias))
def local_fn():
    def inner(v):
        return v
    return inner


for bad in [lambda: torch.save(local_fn(), io.BytesIO()), lambda: torch.save([1, {2: len}], io.BytesIO()), lambda: torch.save(Net, {})]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__)
    else:
        print('saved')
buf = io.BytesIO()
torch.save([len, max, torch.tanh, torch.nn.functional.gelu], buf)
buf.seek(0)
print(torch.load(buf, weights_only=False) == [len, max, torch.tanh, torch.nn.functional.gelu])

# out=
a = torch.arange(6.0).reshape(2, 3)
b = torch.full((2, 3), 2.0)
c = torch.empty(2, 3)
print(torch.add(a, b, out=c) is c, c.tolist())
print(torch.mul(a, b, out=c) is c, c.tolist())
y = torch.empty(2, 2)
print(torch.matmul(a, b.T, out=y) is y, y.tolist(), torch.mm(a, b.T, out=torch.empty(0)).tolist())
print([round(v, 3) for v in torch.exp(a, out=torch.empty(2, 3))[1].tolist()])
print(torch.cat([a, b], out=torch.empty(0)).shape, torch.sum(a, 1, out=torch.empty(2)).tolist())
print(torch.arange(4, out=torch.empty(4)).tolist(), torch.zeros(2, out=torch.empty(5)).tolist())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    print(torch.add(a, b, out=torch.empty(7)).shape, torch.add(a, b, out=torch.empty(0)).shape)
print([str(w.message)[:70] for w in caught])
print(torch.linspace(0, 1, 3, out=torch.empty(3, dtype=torch.float64)).dtype)
print(torch.add(torch.ones(2, dtype=torch.long), 1, out=torch.empty(2)).tolist())
torch.manual_seed(3)
print([round(v, 4) for v in torch.randn(3, out=torch.empty(3, dtype=torch.float64)).tolist()])
r = torch.max(a, 1, out=(torch.empty(2), torch.empty(2, dtype=torch.long)))
print(type(r).__name__, r.values.tolist(), r.indices.tolist())
s = torch.sort(-a, out=(torch.empty(2, 3), torch.empty(2, 3, dtype=torch.long)))
print(type(s).__name__, s[0].tolist(), s.indices.tolist())
print(torch.clamp(a, 1, 4, out=c).tolist(), torch.where(a > 2, a, b, out=c).tolist())
print(torch.add(a, b, out=None).tolist())
w = torch.ones(2, 3, requires_grad=True)
for bad in [lambda: torch.add(w, b, out=c), lambda: torch.add(a, b, out=torch.empty(2, 3, dtype=torch.long)),
            lambda: torch.add(a, b, out=(c,)), lambda: torch.max(a, 1, out=c)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e)[:60] if 'max' not in str(e) else '(max)')
with torch.no_grad():
    print(torch.mul(w, 2, out=c).tolist())


def step(p, q, o):
    torch.add(p, q, out=o)
    return o * 2


for i in range(3):
    print(step(a + i, b, c).tolist())
