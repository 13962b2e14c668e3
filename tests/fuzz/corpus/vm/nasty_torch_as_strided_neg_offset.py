import torch
x = torch.ones(4).as_strided((2,), (1,), -5)
print(x)
