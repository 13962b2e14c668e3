import torch
torch.set_num_threads(10**6)
print(torch.ones(4) + 1)
