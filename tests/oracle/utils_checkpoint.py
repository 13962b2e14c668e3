# torch.utils.checkpoint: the values and gradients of running the segment once
# (dropout included: PyTorch replays its RNG state when it recomputes).
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
lin = torch.nn.Linear(3, 3)
x = torch.randn(2, 3, requires_grad=True)
y = checkpoint(lambda t: torch.relu(lin(t)), x, use_reentrant=False)
print(y.detach())
y.sum().backward(); print(x.grad, lin.weight.grad)
seq = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5), torch.nn.Linear(3, 1))
z = checkpoint_sequential(seq, 2, x, use_reentrant=False); print(z.detach())
z.sum().backward(); print(seq[0].weight.grad)
print(torch.rand(1))
