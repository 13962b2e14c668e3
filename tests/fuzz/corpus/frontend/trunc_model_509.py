import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))

model = MLP(4, 16, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
X = torch.randn(64, 4)
y = (X[:, 0] > 0).long()
for step in range(100):
 