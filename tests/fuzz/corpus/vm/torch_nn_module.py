import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.blocks = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1)})
        self.register_buffer("scale", torch.ones(1))
        self.p = nn.Parameter(torch.zeros(2))
    def forward(self, x):
        for b in self.blocks:
            x = b(x).relu()
        return self.heads["a"](self.fc(x) + self.p) * self.scale
torch.manual_seed(1)
net = Net()
print(net)
print(net(torch.ones(3, 2)).shape, len(net.parameters()), [n for n, _ in net.named_buffers()], len(net.state_dict()))
sd = net.state_dict()
net.load_state_dict(sd)
try:
    net.load_state_dict({"bogus": torch.ones(1)})
except Exception as e:
    print(type(e).__name__)
print(net.load_state_dict({"bogus": torch.ones(1)}, strict=False) if False else 0, net.training, net.eval().training)
net.zero_grad()
net.requires_grad_(False)
print(all(not p.requires_grad for p in net.parameters()), [n for n, _ in net.named_children()], len(net.modules()))
net.apply(lambda m: None)
try:
    net.fc = 5
    print(net.fc)
except Exception as e:
    print(type(e).__name__)
class Bad(nn.Module):
    def __init__(self):
        self.x = nn.Linear(1, 1)
try:
    Bad()
except Exception as e:
    print(type(e).__name__)
