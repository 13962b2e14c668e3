import torch
x = torch.randint(0, 5, (10**6, 10**6))
