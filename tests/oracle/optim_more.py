# Adadelta, Adamax and RAdam against PyTorch (NAdam, whose 1.13 formula differs, is in
# tests/lang/torch_test.cpp), and optimizer.state filled
# by step() as PyTorch fills it (one entry per parameter a step touched).
import torch
import torch.nn as nn
for name in ['Adadelta', 'Adamax', 'RAdam', 'Adam', 'SGD']:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    kw = {'lr': 0.05} if name != 'Adadelta' else {}
    if name == 'SGD':
        kw['momentum'] = 0.9
    if name == 'RAdam':
        kw['weight_decay'] = 0.01
    opt = getattr(torch.optim, name)(model.parameters(), **kw)
    x = torch.randn(8, 3)
    y = torch.randn(8, 1)
    for step in range(8):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    print(name, round(loss.item(), 6), model[0].weight[0].tolist(), len(opt.state), sorted(opt.state[model[0].weight].keys()))

# state['step'] is a float32 tensor and survives a state_dict round trip; Adagrad has state from
# construction. (RMSprop and Adadelta kept an int step up to 1.13, which records this oracle, and
# NAdam's state changed in 2.x: those are checked in tests/lang/torch_test.cpp.)
for cls in [torch.optim.Adam, torch.optim.Adagrad]:
    torch.manual_seed(1)
    model = nn.Linear(3, 2)
    opt = cls(model.parameters(), lr=0.01)
    print(cls.__name__, "state before a step:", len(opt.state_dict()["state"]))
    x = torch.randn(5, 3)
    for _ in range(3):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    st = opt.state_dict()["state"][0]
    print(cls.__name__, list(st.keys()), st["step"])
    opt2 = cls(model.parameters(), lr=0.01)
    opt2.load_state_dict(opt.state_dict())
    opt2.zero_grad()
    model(x).pow(2).mean().backward()
    opt2.step()
    print(cls.__name__, "after load:", opt2.state_dict()["state"][1]["step"], model.bias.tolist())
