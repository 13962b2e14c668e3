# Broadcasting between tensors of different ranks and with Python scalars.
import torch
a = torch.arange(6.0).reshape(2, 3)
row = torch.tensor([10.0, 20.0, 30.0])
col = torch.tensor([[1.0], [2.0]])
print((a + row).tolist())
print((a * col).tolist())
print((row + col).tolist(), (row + col).shape)
print((a - 1).tolist(), (2 * a).