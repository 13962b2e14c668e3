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
    ('|', lambda a, b:(e).__name__, e)
try:
    print('{!x}'.format(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{0[1]}'.format([5, 6]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{0.real}'.format(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:.{}f}'.format(1.5, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{}' .format(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(f'{float("inf"):f}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%.0f %.1f' % (0.5, 0.25))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%5s|%-5s|%05d|%+d|% d' % ('a', 'b', 42, 3, 4))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%.3e|%G|%o|%X|%i' % (1234.5, 1e-10, 8, 255, 3.7))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%s' % [1, 2])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%s %s' % [1, 2])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d' % 1e20)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%d' % float('nan'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%.500f' % 1.0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('%999999999d' % 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print('{:999999999}'.format(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(f'{1:{""}}')
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(1e-320, '.3g'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(format(-1e308 * 10, ''))
except Exception as e:
    print(type(e).__name__, e)
