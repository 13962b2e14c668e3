import torch.nn as nn
a = nn.Module()
b = nn.Module()
a.b = b
b.a = a
print(len(a.modules()))
print(a.state_dict())
