import torch
x = torch.ones(2, dtype=torch.int64)
x.requires_grad_()
