# micrograd in miniature: a scalar autograd Value with a topologically sorted
# backward pass, a Neuron/Layer/MLP built on it and trained on a tiny data
# set, and the same expressions checked against torch in double precision.
import math
import random
import torch


class Value:
    """ stores a single scalar value and its gradient """

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f'**{other}')

        def _backward():
            self.grad += (other * self.data**(other - 1)) * out.grad
        out._backward = _backward
        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        x = self.data
        t = (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"


# the lecture's first expression graph
a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = Value(10.0, label='c')
e = a * b
e.label = 'e'
d = e + c
d.label = 'd'
f = Value(-2.0, label='f')
L = d * f
L.label = 'L'
print(L)
print(d._prev == {e, c}, d._op, sorted(v.data for v in d._prev))
L.backward()
print(a.grad, b.grad, c.grad, f.grad)

# a neuron with tanh, by hand and through exp
x1 = Value(2.0, label='x1')
x2 = Value(0.0, label='x2')
w1 = Value(-3.0, label='w1')
w2 = Value(1.0, label='w2')
b = Value(6.8813735870195432, label='b')
n = x1 * w1 + x2 * w2 + b
o = n.tanh()
o.backward()
print(round(o.data, 6), round(x1.grad, 6), round(w1.grad, 6), round(x2.grad, 6), round(w2.grad, 6))
x1.grad = w1.grad = x2.grad = w2.grad = b.grad = 0.0
n = x1 * w1 + x2 * w2 + b
e = (2 * n).exp()
o = (e - 1) / (e + 1)
o.backward()
print(round(o.data, 6), round(x1.grad, 6), round(w1.grad, 6), round(x2.grad, 6), round(w2.grad, 6))

# the same in torch, in double precision
x1 = torch.Tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()
w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
print(o.dtype, x1.grad.dtype, type(o.item()))

# a bug the lecture fixes: using a node twice accumulates
a = Value(3.0, label='a')
b = a + a
b.backward()
print(a.grad)
a = Value(-2.0)
b = Value(3.0)
d = a * b
e = a + b
f = d * e
f.backward()
print(a.grad, b.grad)
print(Value(2.0) + 1, 1 + Value(2.0), 2 * Value(3.0), Value(4.0) / 2, Value(4.0) - 1, 2 - Value(1.5))


# micrograd's own tests: the same graphs in micrograd and in torch
def test_sanity_check():
    x = Value(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xmg, ymg = x, y

    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y
    print(ymg.data, ypt.data.item(), ymg.data == ypt.data.item())
    print(xmg.grad, xpt.grad.item(), xmg.grad == xpt.grad.item())


def test_more_ops():
    a = Value(-4.0)
    b = Value(2.0)
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.backward()
    amg, bmg, gmg = a, b, g

    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    apt, bpt, gpt = a, b, g
    tol = 1e-6
    print(f'{gmg.data:.4f}', abs(gmg.data - gpt.data.item()) < tol)
    print(f'{amg.grad:.4f}', abs(amg.grad - apt.grad.item()) < tol)
    print(f'{bmg.grad:.4f}', abs(bmg.grad - bpt.grad.item()) < tol)


test_sanity_check()
test_more_ops()

class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{'Tanh' if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"


random.seed(1337)
n = MLP(3, [4, 4, 1])
print(n)
print(len(n.parameters()))
print(round(n([2.0, 3.0, -1.0]).data, 6))

xs = [
    [2.0, 3.0, -1.0],
    [3.0, -1.0, 0.5],
    [0.5, 1.0, 1.0],
    [1.0, 1.0, -1.0],
]
ys = [1.0, -1.0, -1.0, 1.0]
init = [p.data for p in n.parameters()]
for k in range(20):
    ypred = [n(x) for x in xs]
    loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
    n.zero_grad()
    loss.backward()
    for p in n.parameters():
        p.data += -0.05 * p.grad
    if k % 5 == 0:
        print(k, round(loss.data, 6))
print([round(y.data, 4) for y in ypred])

# the same network and training in torch (double), from the same initial weights
W = []
i = 0
for layer in n.layers:
    rows = []
    biases = []
    for neuron in layer.neurons:
        rows.append(init[i:i + len(neuron.w)])
        biases.append(init[i + len(neuron.w)])
        i += len(neuron.w) + 1
    W.append((torch.tensor(rows, dtype=torch.double, requires_grad=True),
              torch.tensor(biases, dtype=torch.double, requires_grad=True)))
X = torch.tensor(xs, dtype=torch.double)
Y = torch.tensor(ys, dtype=torch.double)
for k in range(20):
    h = X
    for j, (w, bb) in enumerate(W):
        h = h @ w.T + bb
        if j != len(W) - 1:
            h = h.tanh()
    tloss = ((h.squeeze(1) - Y)**2).sum()
    for w, bb in W:
        w.grad = None
        bb.grad = None
    tloss.backward()
    with torch.no_grad():
        for w, bb in W:
            w += -0.05 * w.grad
            bb += -0.05 * bb.grad
print(round(tloss.item(), 6), abs(tloss.item() - loss.data) < 1e-9)
print(max(abs(a - b) for a, b in zip(W[0][0].flatten().tolist(), [p.data for nn in n.layers[0].neurons for p in nn.w])) < 1e-9)

# relu network on a small two-class problem with a max-margin loss
random.seed(42)
pts = [(random.uniform(-2, 2), random.uniform(-2, 2)) for _ in range(16)]
labels = [1 if x * x + y * y < 1.5 else -1 for x, y in pts]
print(labels)


class ReluNeuron(Neuron):
    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act


model = MLP(2, [8, 1])
for layer in model.layers:
    layer.neurons = [ReluNeuron(len(nr.w), nonlin=nr.nonlin) for nr in layer.neurons]
print(model)
for k in range(10):
    scores = [model(p) for p in pts]
    losses = [(1 + -yi * si).relu() for yi, si in zip(labels, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum((p * p for p in model.parameters()))
    total = data_loss + reg_loss
    accuracy = [(yi > 0) == (si.data > 0) for yi, si in zip(labels, scores)]
    model.zero_grad()
    total.backward()
    learning_rate = 1.0 - 0.9 * k / 10
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    if k % 3 == 0:
        print(f"step {k} loss {total.data:.6f}, accuracy {sum(accuracy) / len(accuracy) * 100}%")
