import torch
import math
class Box:
    def __init__(self, v=1):
        self.v = v
    def __add__(self, o):
        return Box(self.v)
    def __radd__(self, o):
        return Box(self.v)
    def __lt__(self, o):
        return NotImplemented
samples = {
    'int': lambda: 7,
    'neg': lambda: -3,
    'zero': lambda: 0,
    'bool': lambda: True,
    'float': lambda: 2.5,
    'nan': lambda: float('nan'),
    'inf': lambda: float('inf'),
    'str': lambda: 'ab',
    'estr': lambda: '',
    'list': lambda: [1, 2],
    'tuple': lambda: (1, 2),
    'dict': lambda: {1: 2},
    'set': lambda: {1, 2},
    'none': lambda: None,
    'range': lambda: range(3),
    'slice': lambda: slice(1, 2),
    'func': lambda: len,
    'lambda': lambda: (lambda: 0),
    'cls': lambda: int,
    'inst': lambda: Box(),
    'exc': lambda: ValueError('e'),
    'tensor': lambda: torch.tensor([1.0, 2.0]),
    'itensor': lambda: torch.tensor([3, 4]),
    'btensor': lambda: torch.tensor([True, False]),
    'scalar': lambda: torch.tensor(5),
    'dtype': lambda: torch.float32,
    'size': lambda: torch.Size([2]),
    'module': lambda: math,
    'big': lambda: 2**62,
}
ops = [
    ('+', lambda a, b: a + b),
    ('-', lambda a, b: a - b),
    ('*', lambda a, b: a * b),
    ('/', lambda a, b: a / b),
    ('//', lambda a, b: a // b),
    ('%', lambda a, b: a % b),
    ('**', lambda a, b: a ** b),
    ('@', lambda a, b: a @ b),
    ('&', lambda a, b: a & b),
    ('|', lambda a, b: a | b),
    ('^', lambda a, b: a ^ b),
    ('<<', lambda a, b: a << b),
    ('>>', lambda a, b: a >> b),
    ('<', lambda a, b: a < b),
    ('<=', lambda a, b: a <= b),
    ('==', lambda a, b: a == b),
    ('!=', lambda a, b: a != b),
    ('>', lambda a, b: a > b),
    ('>=', lambda a, b: a >= b),
    ('in', lambda a, b: a in b),
    ('is', lambda a, b: a is b),
]
for rname, rmake in samples.items():
    for op, f in ops:
        try:
            r = f(samples['tuple'](), rmake())
            print('tuple', op, rname, repr(r)[:60])
        except Exception as e:
            print('tuple', op, rname, type(e).__name__)
for u in [lambda a: -a, lambda a: +a, lambda a: ~a, lambda a: not a, lambda a: abs(a), lambda a: hash(a), lambda a: len(a),
          lambda a: bool(a), lambda a: str(a)[:40], lambda a: list(a)[:5], lambda a: a[0], lambda a: a[1:], lambda a: a(),
          lambda a: int(a), lambda a: float(a), lambda a: round(a), lambda a: sorted(a)]:
    try:
        print(repr(u(samples['tuple']()))[:60])
    except Exception as e:
        print(type(e).__name__)
