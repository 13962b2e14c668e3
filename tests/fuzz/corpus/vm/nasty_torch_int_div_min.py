import torch
print(torch.tensor([-2**63]) // torch.tensor([-1]), torch.tensor([-2**63]) % torch.tensor([-1]))
