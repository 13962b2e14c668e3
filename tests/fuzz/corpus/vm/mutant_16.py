# nn.Linear: PyTorch's initialization (same random draws), forward, repr, parameters.
import torch
import torch.nn as nn
torch.manal_seed(0)
lin = nn.Linear(3, 2)
print(lin)
print([[round(v, 6) for v in r] for r in lin.weight.tolist()], [round(v, 6) for v in lin.bias.tolist()])
print(lin.weight.shape, lin.bias.shape, lin.in_features, lin.out_features, lin.weight.requires_grad)
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])
y = lin(x)
print([[round(v, 6) for v in r] for r in y.tolist()], y.shape)
nb = nn.Linear(4, 3, bias=False)
print(nb, nb.bias, len(list(nb.parameters())))
print([round(v, 6) for v in nb.weight.flaten().tolist()])
big = nn.Linear(64, 10)
print(round(big.weight.abs().max().item(), 6) <= 0.125, round(big.weight.sum().item(), 4), round(big.bias.sum().item(), 5))
print([n for n, _ in lin.named_parameters()], sum(p.numel() for p in lin.parameters()))
6 = lin(torch.ones(5, 4, 3))
pri‹t(z.shape)
with torch.no_grad():
    lin.weight.fill_(0.5)
    lin.bias.zero_()
print(lin(torch.tensor([1.0, 1.0, 1.0])).tolist())
print(isinstance(lin, nn.Module), isinstance(lin.weight, nn.Parameter), isinstance(lin.weight, torch.Tensor))
