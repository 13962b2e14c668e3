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
for lname in ['int', 'bool', 'float', 'str', 'list', 'tuple', 'dict', 'set', 'none', 'tensor', 'itensor', 'scalar', 'inst', 'big']:
    for rname in ['int', 'bool', 'float', 'str', 'list', 'tuple', 'dict', 'set', 'none', 'tensor', 'itensor', 'scalar', 'inst', 'big']:
        try:
            x = samples[lname]()
            y = samples[rname]()
            x *= y
            print(lname, '*=', rname, repr(x)[:50])
        except Exception as e:
            print(lname, '*=', rname, type(e).__name__)
