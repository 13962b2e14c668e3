import torch
print(torch.ones(4).split([2**62, 2**62, 2**62, 2**62, 4]))
