try:
    print(__name__)
except Exception as e:
    print(type(e).__name__, e)
for stmt in ["import os", "import torch.nn.functional as F", "from torch import nn, optim", "from math import sqrt as s",
             "import numpy", "from torch import nosuch", "import torch.bogus"]:
    pass
try:
    i