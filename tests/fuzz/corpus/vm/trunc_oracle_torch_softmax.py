# softmax / log_softmax along different dims, and their numerical stability.
import torch
import torch.nn.functional as F
x = torch.tensor([[1.0, 2.0, 3.0], [1000.0, 1001.0, 1002.0], [-5.0, 0.0, 5.0]])
def show(name, t):
    print(name, [[round(v, 5) for v in row] for row in t.tolist()])
show("softmax1", torch.softmax(x, dim=1))
show("softmax0", x.softmax(0))
show("softmax-1", F.softmax(x, dim=-1))
show("log_softmax1", torch.log_softmax(x, 1))
show("log_softmax0", F.log_softmax(x, dim=0))
show("method", x.log_softmax(-1))
print([round(v, 5) for v in torch.softmax(x, 1).sum(1).tolist()])
y = torch.tensor([0.5, -0.5, 2.0])
print([round(v, 6) for v in F.softmax(y, di