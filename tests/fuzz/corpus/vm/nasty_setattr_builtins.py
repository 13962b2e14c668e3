import math
math.pi = 3
print(math.pi)
import torch
torch.ones = None
try:
    torch.ones(2)
except TypeError as e:
    print(e)
len.x = 1
