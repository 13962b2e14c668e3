import torch
a = torch.ones(1, 1).expand(10**5, 10**5)
print((a @ a).shape)
