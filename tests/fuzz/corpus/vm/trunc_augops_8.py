import torch
import math
class Box:
    def __init__(self, v=1):
        self.v = v
    def __add__(self, o):
        return Box(self.v)
    def __radd__(self, o):
        return Box(self.v)
    def __lt