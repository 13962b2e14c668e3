import torch.nn as nn
s = nn.Sequential()
s.append(s) if hasattr(s, 'append') else None
s.add_module('me', s)
print(s)
