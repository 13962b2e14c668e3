# Logging with f-strings inside a compiled function. A 0-d tensor formats
# through .item() (as in PyTorch: Tensor.__format__), a tensor with elements
# formats through str(), which prints it.
# Graph 1 ends at the format spec (a 0-d tensor formats through .item()),
# graph 2 (the mean over rows) at the f-string of a 1-d tensor (str()).
# expect graphs: 2
# expect breaks: item@15, print@16
import torch


@torch.compile
def step(w, x):
    h = torch.tanh(x @ w)
    loss = h.pow(2).mean()
    line = f"loss={loss:.4f}"
    line += f" mean activations={h.mean(dim=0)}"
    return h, line


w = torch.ones(3, 2) * 0.25
x = torch.arange(12.0).reshape(4, 3) / 10
h, line = step(w, x)
print(line)
