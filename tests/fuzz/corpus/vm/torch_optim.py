import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[1.0], [2.0]])
for opt in [torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, nesterov=True), torch.optim.Adam(model.parameters(), lr=0.01, amsgrad=True),
            torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)]:
    for step in range(3):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    opt.param_groups[0]["lr"] = 0.001
    print(type(opt).__name__, round(loss.item(), 4))
for f in [lambda: torch.optim.SGD(model.parameters(), lr=-1), lambda: torch.optim.Adam(model.parameters(), betas=(2, 0)),
          lambda: torch.optim.SGD([], lr=0.1), lambda: torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True),
          lambda: torch.optim.Adam(5), lambda: torch.optim.SGD(model.parameters(), lr=0.1).step(lambda: 1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
