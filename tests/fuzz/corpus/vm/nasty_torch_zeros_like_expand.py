import torch
x = torch.ones(1).expand(10**7, 10**7)
print(x.shape)
y = x.contiguous()
