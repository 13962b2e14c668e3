# from M import * at module level: M.__all__ when defined, else the public names.
from math import *
print(sqrt(16.0), floor(2.5), pi > 3, isclose(1.0, 1.0 + 1e-12))
from torch.nn.functional import *
import torch
x = torch.tensor([-1.0, 0.5, 2.0])
print([round(v, 4) for v in relu(x).tolist()], [round(v, 4) for v in softmax(x, dim=0).tolist()])
from torch.nn import *
lin = Linear(3, 2)
print(type(lin).__name__, isinstance(ReLU(), Module))
from collections import *
print(OrderedDict(a=1), Counter("aab")["a"], deque([1, 2]).pop())
from os.path import *
print(join("a", "b"), basename("/x/y.py"), splitext("f.txt"))
def uses_star_names():
    return floor(7.9), relu(torch.tensor([-2.0, 3.0])).tolist()
print(uses_star_names())
