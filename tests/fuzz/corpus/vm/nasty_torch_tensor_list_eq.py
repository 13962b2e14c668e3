import torch
print([torch.ones(2)] == [torch.ones(2)])
