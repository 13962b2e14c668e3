# collections.namedtuple and typing.NamedTuple classes derive from tuple, as in
# CPython: their instances are tuples (isinstance, +, *, ==, <, hash, slicing,
# unpacking, tuple(), torch functions taking tuples), with fields as properties,
# _make/_replace/_asdict/_fields/_field_defaults, subclasses with their own
# methods and __new__, deepcopy, and CPython's error messages.
import copy
from collections import namedtuple
from typing import NamedTuple

import torch

Point = namedtuple('Point', ['x', 'y'])
p = Point(1, y=2)
print(p, repr(p), str(p), isinstance(p, tuple), isinstance(p, Point), issubclass(Point, tuple))
print(type(p).__name__, type(p) is Point, Point.__mro__[1:], p.__class__.__name__)
print(p + (3,), p * 2, p[0], p[-1], p[:1], len(p), tuple(p), list(p), 2 in p, p.count(1), p.index(2))
print(p == (1, 2), (1, 2) == p, p != Point(2, 1), p < Point(1, 3), sorted([Point(2, 1), Point(1, 5)]))
print(hash(p) == hash((1, 2)), {p: 'a'}[(1, 2)], max(Point(2, 1), Point(1, 5)))
a, b = p
print(a, b, *p, p._replace(x=5), p._asdict(), Point._fields, Point._field_defaults)
print(Point._make([7, 8]), Point._make(range(2)), Point.x.__doc__)
print('%s and %s' % p, '{0} {1}'.format(*p), f'{p}', str(tuple(p)))

Cfg = namedtuple('Cfg', 'lr, momentum nesterov', defaults=[0.9, False])
print(Cfg(0.1), Cfg(0.1, nesterov=True), Cfg._field_defaults, Cfg.__name__)

for bad in [lambda: Point(1), lambda: Point(), lambda: Point(1, 2, 3), lambda: Point(1, z=3),
            lambda: Point(1, x=2), lambda: Point._make([1]), lambda: p._replace(z=1)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    p.x = 5
except AttributeError as e:
    print('AttributeError')


class Vec(namedtuple('Vec', 'x y')):
    __slots__ = ()

    def __new__(cls, x, y=0.0):
        return super().__new__(cls, float(x), float(y))

    @property
    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5

    def scaled(self, k):
        return Vec(self.x * k, self.y * k)

    def __str__(self):
        return 'Vec<%g, %g>' % self


v = Vec(3, 4)
print(v, repr(v), v.norm, v.scaled(2), isinstance(v, tuple), Vec.__mro__[1].__name__, v._replace(y=1))
print(copy.deepcopy(v), copy.copy(v) == v)


class Batch(NamedTuple):
    inputs: torch.Tensor
    labels: torch.Tensor
    weight: float = 1.0

    def size(self):
        return self.inputs.shape[0]


batch = Batch(torch.arange(6.0).reshape(3, 2), torch.tensor([0, 1, 1]))
print(isinstance(batch, tuple), batch.size(), batch.weight, len(batch), Batch._fields, Batch.__annotations__)
x, y, w = batch
print(x.sum(), y.tolist(), w)
print(torch.cat(batch[:2][0:1] + (batch.inputs,)).shape, torch.stack(Point(torch.ones(2), torch.zeros(2))))
deep = copy.deepcopy(batch)
deep.inputs.add_(1)
print(type(deep).__name__, batch.inputs.sum(), deep.inputs.sum())

# torch.return_types are tuples too; tuple() of either gives a plain tuple.
m = torch.max(torch.tensor([[1.0, 5.0], [3.0, 2.0]]), dim=1)
print(isinstance(m, tuple), type(tuple(m)).__name__, type(tuple(p)).__name__, tuple(m)[1])

# A subclass may redefine tuple's own methods: the call site that also sees
# plain tuples must not reuse tuple's.
class Counted(namedtuple('Counted', 'a b')):
    def count(self, x):
        return 'own count'


for q in [(1, 1), Counted(1, 1), (1, 2), Counted(3, 4)]:
    print(q.count(1), q.index(q[0]))
