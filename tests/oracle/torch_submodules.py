# `import torch` alone reaches torch.nn, torch.nn.functional, torch.nn.init and
# torch.optim as attributes, as in PyTorch (whose torch/__init__ imports them).
import torch

print(torch.nn.functional.relu(torch.tensor([-1.0, 2.0])))
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
torch.nn.init.constant_(lin.bias, 0.5)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
loss = torch.nn.functional.mse_loss(lin(torch.ones(4, 3)), torch.zeros(4, 2))
loss.backward()
opt.step()
print(lin.bias)
import torch.nn as nn
print(nn.functional.gelu(torch.tensor([1.0])))
