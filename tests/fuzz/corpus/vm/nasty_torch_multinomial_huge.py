import torch
print(torch.multinomial(torch.ones(3), 10**12, replacement=True))
