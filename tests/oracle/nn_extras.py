# nn.ParameterList/ParameterDict, Unflatten, PixelShuffle/Unshuffle and Bilinear,
# and the reproducibility and mixed-precision boilerplate scripts carry
# (torch.backends flags, deterministic algorithms, autocast and GradScaler
# without a GPU) running a training loop unchanged.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
pl = nn.ParameterList([nn.Parameter(torch.randn(2, 3)), torch.zeros(3)])
pl.append(nn.Parameter(torch.ones(1)))
print(pl, len(pl), [p.shape for p in pl], type(pl[1]).__name__)
pd = nn.ParameterDict({'a': nn.Parameter(torch.ones(2)), 'b': nn.Parameter(torch.zeros(1, 2))})
print(pd, list(pd.keys()), 'a' in pd)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(torch.randn(3, 3)) for _ in range(2)])
        self.up = nn.Sequential(nn.Unflatten(1, (4, 2, 2)), nn.PixelShuffle(2))
        self.bl = nn.Bilinear(3, 2, 4)
    def forward(self, x, y):
        for w in self.ws:
            x = x @ w
        return self.bl(x, y)
m = M()
print(m)
print([n for n, _ in m.named_parameters()])
out = m(torch.randn(5, 3), torch.randn(5, 2))
print(out)
out.sum().backward()
print(m.ws[0].grad)
z = m.up(torch.arange(32.).reshape(2, 16))
print(z.shape, z[0, 0])
print(F.pixel_unshuffle(z, 2).shape, torch.equal(F.pixel_unshuffle(z, 2), torch.arange(32.).reshape(2, 4, 2, 2)))

torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.use_deterministic_algorithms(True)
torch.set_float32_matmul_precision('high')
print(torch.backends.cudnn.deterministic, torch.are_deterministic_algorithms_enabled(),
      torch.get_float32_matmul_precision())
scaler = torch.cuda.amp.GradScaler(enabled=torch.cuda.is_available())
opt = torch.optim.SGD(m.parameters(), lr=0.05)
x, y = torch.randn(8, 3), torch.randn(8, 2)
for step in range(3):
    opt.zero_grad()
    with torch.autocast(device_type='cuda', enabled=torch.cuda.is_available()):
        loss = m(x, y).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    print(step, round(loss.item(), 5))
