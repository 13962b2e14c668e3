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
 