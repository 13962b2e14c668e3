# A graph break inside `with torch.no_grad():` in a compiled function: the
# graph before the break and the one after it both see the right grad mode.
# Graph 1: the loss and w * 2 up to the .item() inside no_grad; graph 2: the
# division after it (still no grad: unit.requires_grad is False); backward
# outside the compiled call is graph 3.
# expect graphs: 3
# expect breaks: item@20
# expect output: False
import torch

torch.manual_seed(12)
w = torch.randn(3, requires_grad=True)


@torch.compile
def loss_and_norm(x):
    loss = (w * x).sum() ** 2
    with torch.no_grad():
        scaled = w * 2
        norm = scaled.norm().item()
        unit = scaled / norm
    return loss, unit


loss, unit = loss_and_norm(torch.ones(3))
loss.backward()
print(unit.requires_grad, w.grad)
