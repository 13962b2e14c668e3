# torch.set_printoptions: precision, threshold/edgeitems, linewidth and the
# profiles change every tensor printed afterwards; torch.__version__ exists.
import torch

print(isinstance(torch.__version__, str))
x = torch.tensor([1.23456789, 2.0, -0.5])
y = torch.tensor([[1.5, -2.25], [3.0, 4.125]], dtype=torch.float64)
print(x, y)
torch.set_printoptions(precision=2)
print(x, y, torch.tensor(3.14159))
torch.set_printoptions(precision=6)
print(x)
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10), torch.arange(12.0).reshape(3, 4))
torch.set_printoptions(profile='default')
torch.set_printoptions(linewidth=30)
print(torch.arange(20.0).cpu())  # on the CPU in every mode: a device suffix would wrap too
torch.set_printoptions(profile='short')
print(torch.tensor([1.23456, 100.5]), torch.arange(2000.0))
torch.set_printoptions(profile='full')
print(len(str(torch.arange(1005))) > 4000)
torch.set_printoptions(profile='default')
print(torch.arange(2000.0))
