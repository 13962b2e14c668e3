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
