import torch
x = torch.empty(2**62)
