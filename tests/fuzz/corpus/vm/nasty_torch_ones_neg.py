import torch
x = torch.ones(-1)
