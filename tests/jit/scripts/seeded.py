import torch
a = torch.rand(3)
torch.manual_seed(7)
b = torch.rand(3)
print(torch.equal(a, b))
