# torch.nn.utils.weight_norm / remove_weight_norm and spectral_norm (the hook-based forms): parameter
# names, the recomputed weight and its node, training through them, power iteration in train mode only,
# and ConvTranspose's dim 1.
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.utils.weight_norm(nn.Linear(3, 2))
print([n for n, _ in m.named_parameters()], m.weight_g.shape)
print(m(torch.ones(1, 3)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for _ in range(3):
    loss = m(torch.ones(4, 3)).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(round(loss.item(), 5))
print(m.weight_g.grad, m.weight.detach(), m.weight.grad_fn.name())
c = nn.utils.weight_norm(nn.Conv2d(2, 3, 3), dim=None)
print(c.weight_g)
nn.utils.remove_weight_norm(m)
print([n for n, _ in m.named_parameters()])
torch.manual_seed(0)
s = nn.utils.spectral_norm(nn.Linear(3, 2))
print([n for n, _ in s.named_parameters()], [n for n, _ in s.named_buffers()])
print(s(torch.ones(1, 3)))
print(s.weight_u, s.weight_v)
s.eval()
print(s(torch.ones(1, 3)))
torch.manual_seed(1)
ct = nn.utils.spectral_norm(nn.ConvTranspose2d(2, 3, 2))
print(ct(torch.ones(1, 2, 2, 2)).sum(), ct.weight_u.shape)
