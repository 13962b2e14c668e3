"""Module docstring."""
import math
import torch.nn as nn
from torch import optim as o, tensor
from os.path import (join, exists,)
x = 1
y = 2.5
z = x + y * 3 - 4 / 2 // 1 % 7 ** 2
a, b = b, a
a, *rest = [1, 2, 3]
[p, q] = (1, 2)
x += 1; y -= 2; z *= 3
x /= 2
x //= 2
x %= 3
x **= 2
x @= y
x &= 1
x |= 2
x ^= 3
x <<= 1
x >>= 1
n: int = 3
m: float
s = 'single' "double" '''triple''' """triple2"""
r = r'raw\n' + 'esc\n\t\x41\u00e9\0'
h = 0x_FF + 0o17 + 