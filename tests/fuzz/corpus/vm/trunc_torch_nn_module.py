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
print(net(torch.ones(3, 2)).shape, len(net.parameters()), [n for n, _ in net.nam