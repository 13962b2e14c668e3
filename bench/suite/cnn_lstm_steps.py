# Two training steps outside the issue-6 suite, timed the same way in both systems:
# a small CNN (two conv + batch_norm + max_pool blocks, batch 64 of 3x32x32, SGD) and
# an LSTM (input 64, hidden 128, 50 steps, batch 32, Adam). One text for both:
# `kiln run cnn_lstm_steps.py` and `python3 cnn_lstm_steps.py`. Prints medians in ms.
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_num_threads(2)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 32, 3, padding=1)
        self.b1 = nn.BatchNorm2d(32)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.b2 = nn.BatchNorm2d(64)
        self.fc = nn.Linear(64 * 8 * 8, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2)
        x = F.max_pool2d(F.relu(self.b2(self.c2(x))), 2)
        return self.fc(x.flatten(1))
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(64, 3, 32, 32)
y = torch.randint(0, 10, (64,))
def step():
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss
for _ in range(3):
    step().item()
ts = []
for r in range(5):
    t0 = time.perf_counter()
    for _ in range(5):
        step().item()
    ts.append((time.perf_counter() - t0) / 5 * 1000)
ts.sort()
print("cnn step ms", round(ts[2], 2))
lstm = nn.LSTM(64, 128, batch_first=True)
head = nn.Linear(128, 10)
o2 = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()))
xs = torch.randn(32, 50, 64)
def step2():
    out, _ = lstm(xs)
    loss = F.cross_entropy(head(out[:, -1]), y[:32])
    o2.zero_grad(); loss.backward(); o2.step()
    return loss
for _ in range(2):
    step2().item()
ts = []
for r in range(3):
    t0 = time.perf_counter()
    for _ in range(3):
        step2().item()
    ts.append((time.perf_counter() - t0) / 3 * 1000)
ts.sort()
print("lstm step ms", round(ts[1], 2))
