import torch
@torch.compile
def f(x):
   