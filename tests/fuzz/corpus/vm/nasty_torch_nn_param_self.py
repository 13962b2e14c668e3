import torch.nn as nn
m = nn.Module()
m.child = m
print(m)
