try:
    print(__name__)
except Exception as e:
    print(type(e).__name__, e)
for stmt in ["import os", "import torch.nn.functional as F", "from torch import nn, optim", "from math import sqrt as s",
             "import numpy", "from torch import nosuch", "import torch.bogus"]:
    pass
try:
    import os
except ImportError as e:
    print(type(e).__name__, e)
try:
    from torch import nosuch
except ImportError as e:
    print(type(e).__name__, e)
try:
    import torch.bogus
except ImportError as e:
    print(type(e).__name__, e)
import torch.nn.functional as F
from math import sqrt as s, pi
import sys, time, math
print(s(4), pi, F.relu, math.floor(1.5))
