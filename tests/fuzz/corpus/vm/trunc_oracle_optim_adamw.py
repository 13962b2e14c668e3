# torch.optim.AdamW: decoupled weight decay; compared with Adam; parameter groups; lr changes.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(10, 3)
Y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
def run(opt_cls, **kw):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 3))
    opt = opt_cls(model.parameters(), **kw)
    losses = []
    for step in range(10):
        opt.zero_grad()
        loss = F.cross_entropy(model(X), Y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 6))
    print(type(opt).__name__, kw, losses)
    print("  final", [round(v, 6) for v in model[2].weight[0].tolist()])
    return model
run(torch.optim.AdamW)
run(torch.optim.AdamW, lr=0.01)
run(torch.optim.AdamW, lr=0.01, weight_decay=0.5)
run(torch.optim.AdamW, lr=0.01, amsgrad=True)
run(torch.optim.Adam, lr=0.01, weight_decay=0.5)
torch.manual_seed(4)
model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 3))
decay = [p for n, p in model.named_parameters() if n.endswith("weight")]
no_decay = [p f