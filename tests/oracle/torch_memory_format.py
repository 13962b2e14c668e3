# torch.memory_format: channels_last / channels_last_3d strides from
# contiguous(), to(), clone(), the *_like factories and empty(); is_contiguous
# with a memory format; nn.Module.to(memory_format=); and a channels-last
# training step computing what the contiguous one does.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
print(torch.channels_last, torch.contiguous_format, torch.channels_last_3d, torch.preserve_format,
      type(torch.channels_last).__name__)
x = torch.randn(2, 3, 4, 5)
cl = x.contiguous(memory_format=torch.channels_last)
print(cl.stride(), cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last), torch.equal(cl, x))
print(x.to(memory_format=torch.channels_last).stride(), x.to(torch.float64, memory_format=torch.channels_last).stride())
print(x.clone(memory_format=torch.channels_last).stride(), x.clone(memory_format=torch.contiguous_format).stride())
print(torch.zeros_like(x, memory_format=torch.channels_last).stride(), torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride())
print(cl.contiguous().stride(), cl.contiguous(memory_format=torch.channels_last) is cl)
print(x.is_contiguous(memory_format=torch.channels_last), torch.ones(2, 1, 4, 5).is_contiguous(memory_format=torch.channels_last))
v = torch.randn(1, 2, 3, 4, 5).contiguous(memory_format=torch.channels_last_3d)
print(v.stride(), v.is_contiguous(memory_format=torch.channels_last_3d))
for bad in (lambda: torch.randn(2, 3).contiguous(memory_format=torch.channels_last),
            lambda: x.contiguous(memory_format=torch.channels_last_3d)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)


def make():
    torch.manual_seed(1)
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 4, 3, stride=2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))


losses = []
for fmt in (torch.contiguous_format, torch.channels_last):
    model = make().to(memory_format=fmt)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    data = torch.randn(4, 3, 8, 8).to(memory_format=fmt)
    target = torch.tensor([0, 1, 1, 0])
    for _ in range(3):
        loss = F.cross_entropy(model(data), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    losses.append(round(loss.item(), 5))
    print(fmt, model[0].weight.stride(), model[0].weight.is_contiguous(memory_format=torch.channels_last))
print(losses, losses[0] == losses[1])
