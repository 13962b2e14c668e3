# Accuracy measured the usual way, (pred == y).float().mean().item(), in an
# evaluation function that becomes hot after its second call.
# Epoch 0 calls Module.__call__ 4 times (Sequential, Linear, ReLU, Linear):
# the ReLU and the second Linear are its third and fourth calls, 2 graphs; in
# epoch 1 the whole Sequential is a third (a recompile of the Linear's place).
# Epoch 2 is accuracy()'s third call (1 graph), epoch 3 the hot loop (1 graph).
# The .item() breaks in epochs 2 and 3.
# expect graphs: 5
# expect breaks: item@22 x2
# expect region: function accuracy
import torch

torch.manual_seed(2)
model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
x = torch.randn(48, 4)
y = torch.randint(0, 3, (48,))


def accuracy(model, x, y):
    with torch.no_grad():
        pred = model(x).argmax(dim=1)
        return (pred == y).float().mean().item()


for epoch in range(4):
    print(f"epoch {epoch}: accuracy {accuracy(model, x, y):.4f}")
