# Generator functions: yield, yield from, next() with a default, StopIteration,
# generators consumed by for/list/sum/zip/enumerate, try/finally and with
# blocks around a yield, closures, and a data loader feeding a training loop
# (the loop's functions compiled by the JIT, the generator interpreted).
import torch
import itertools
import torch.nn as nn


def count(n):
    i = 0
    while i < n:
        yield i
        i += 1


print(list(count(4)), sum(count(5)), list(zip(count(3), count(5))), dict(enumerate(count(2))))
g = count(2)
print(next(g), next(g), next(g, 'end'))
try:
    next(g)
except StopIteration:
    print('StopIteration')


def pairs():
    yield 1, 2
    yield from [3, 4]
    x = yield
    print('x is', x)
    return 7


print(list(pairs()))


def guarded():
    try:
        yield 1
        raise ValueError('boom')
    finally:
        print('cleanup')


try:
    for v in guarded():
        print('got', v)
except ValueError as e:
    print('caught', e)


def in_handler():
    try:
        raise KeyError('k')
    except KeyError:
        yield 'handled'
    yield 'after'


print(list(in_handler()))


def offsets(k):
    def add(v):
        return v + k
    for i in range(3):
        yield add(i)


print(list(offsets(10)))


def selfref():
    yield next(gen)


gen = selfref()
try:
    next(gen)
except ValueError as e:
    print('ValueError:', e)

torch.manual_seed(0)


def batches(n, bs):
    for i in range(n):
        x = torch.randn(bs, 4)
        y = (x.sum(dim=1, keepdim=True) > 0).float()
        yield x, y


model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def train_step(x, y):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    return loss.item()


for epoch in range(4):
    losses = [train_step(x, y) for x, y in batches(5, 16)]
    print(epoch, round(sum(losses) / len(losses), 4))

# Generator expressions run lazily: side effects in order, infinite sources, a closure seen late.
g = (i * i for i in range(5) if i % 2 == 0)
print(type(g).__name__, next(g), list(g), list(g))
print(next(x for x in itertools.count() if x * x > 50))
print(sum(x for x in range(10)), max(len(w) for w in ["a", "abc"]))
log = []
def f(x):
    log.append(x)
    return x
h = (f(i) for i in range(3))
print(log); next(h); print(log)
print([(a, b) for a in range(2) for b in range(2)], list((a, b) for a in range(2) for b in "xy"))
print(dict((k, v) for k, v in [(1, 2)]), tuple(c for c in "ab"), " ".join(str(i) for i in range(3)))
def outer():
    n = 3
    return (i + n for i in range(2))
print(list(outer()))
try:
    list(1/x for x in [1, 0])
except ZeroDivisionError as e:
    print("zde", e)
print(any(x > 2 for x in [1, 5]), all(x > 0 for x in []))
gen = (x for x in range(3))
print(iter(gen) is gen, gen.__next__() if hasattr(gen, "__next__") else 0)
print(sorted((x for x in [3, 1, 2]), reverse=True))
