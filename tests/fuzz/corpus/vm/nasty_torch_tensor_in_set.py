import torch
a = torch.ones(2)
s = {a, a}
print(len(s), a in s, a in [a], a in [torch.ones(2)])
