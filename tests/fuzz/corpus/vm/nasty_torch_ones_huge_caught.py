import torch
try:
    torch.ones(10**6, 10**6)
except RuntimeError as e:
    print('RuntimeError')
