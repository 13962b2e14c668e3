# backward() and .grad: leaves, chain rule, accumulation, broadcasting reductions, non-leaf tensors.
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x + 3 