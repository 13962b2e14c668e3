# .item() accuracy, (pred == y).float().mean().item(), in a function hot after
# 2 calls. Epoch 0 calls Module.__call__ 4 times (Sequential, Linear, ReLU,
# Linear): the ReLU is its third call, a region (1 graph), and the second
# Linear the third iteration of Sequential.forward's loop (1 graph); epoch 1's
# whole Sequential is a __call__ region (1 graph, other first op: no
# recompile). The epoch loop is a region from epoch 2: epochs 2-3 are 1 graph
# (accuracy()'s third call inlined), each run at the .item(): 2 breaks.
# expect graphs: 4
# expect breaks: item@22 x2
# expect region: loop loop at item_accuracy.py:25 in <module>
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
