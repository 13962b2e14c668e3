import torch
x = torch.ones(4).as_strided((4,), (10**15,))
print(x)
