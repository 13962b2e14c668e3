# nn.Module: registration of parameters and submodules, traversal order, train/eval,
# zero_grad, state_dict / load_state_dict (with PyTorch's error message), repr.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.scale = nn.Parameter(torch.ones(d))
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.fc(x)) * self.scale

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(2, 4)
        self.block1 = Block(4)
        self.block2 = Block(4)
        self.head = nn.Linear(4, 3)
        self.alias = self.head
        self.register_buffer("counter", torch.zeros(1))
        self.temperature = 2.0

    def forward(self, x):
        x = self.embed(x)
        x = self.block2(self.block1(x))
        return self.head(x) / self.temperature

torch.manual_seed(0)
net = Net()
print(net)
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
print(len(net.parameters() if isinstance(net.parameters(), list) else list(net.parameters())))
print(sum(p.numel() for p in net.parameters()))
print([name for name, _ in net.named_children()], [type(m).__name__ for m in net.modules()])
print([name for name, _ in net.named_modules()])
print(list(net.state_dict().keys()))
print([name for name, _ in net.named_buffers()], net.counter.tolist(), net.temperature)
x = torch.tensor([[0.5, -1.0], [2.0, 0.0]])
out = net(x)
print([[round(v, 5) for v in r] for r in out.tolist()])
print(net.training, net.block1.training, net.block1.act.training)
net.eval()
print(net.training, net.block1.training, net.block1.act.training)
net.train()
print(net.training, net.block2.fc.training)
loss = F.cross_entropy(out, torch.tensor([0, 2]))
loss.backward()
print(round(loss.item(), 5), net.head.weight.grad is not None, round(net.block1.scale.grad.sum().item(), 5))
net.zero_grad()
print(net.head.weight.grad is None or net.head.weight.grad.abs().sum().item() == 0)
torch.manual_seed(1)
other = Net()
print(torch.equal(other.head.weight, net.head.weight))
res = other.load_state_dict(net.state_dict())
print(res)
print(torch.equal(other.head.weight, net.head.weight), torch.equal(other(x), net(x)))
sd = net.state_dict()
print(sd["head.bias"].requires_grad, len(sd))
del sd["head.bias"]
sd["extra.weight"] = torch.zeros(1)
try:
    other.load_state_dict(sd)
except RuntimeError as e:
    print(str(e))
bad = net.state_dict()
bad["embed.weight"] = torch.zeros(5, 5)
try:
    other.load_state_dict(bad)
except RuntimeError as e:
    print(str(e))
class NoForward(nn.Module):
    pass
try:
    NoForward()(1)
except NotImplementedError as e:
    print("NotImplementedError")
net.requires_grad_(False)
print(all(not p.requires_grad for p in net.parameters()))
m = nn.Module()
m.add_module("lin", nn.Linear(1, 1))
m.register_parameter("p", nn.Parameter(torch.zeros(2)))
print([n for n, _ in m.named_parameters()], m)
applied = []
net.apply(lambda mod: applied.append(type(mod).__name__))
print(applied)
