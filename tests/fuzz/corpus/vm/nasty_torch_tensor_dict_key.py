import torch
a = torch.ones(2)
d = {a: 1}
print(d[a])
print(torch.ones(2) in d)
