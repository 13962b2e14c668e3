# ConvTranspose{1,2,3}d.forward(input, output_size=...): output_size picks the
# output_padding within the stride's ambiguity; out-of-range sizes and
# wrong lengths raise PyTorch's ValueErrors.
import torch
import torch.nn as nn

torch.manual_seed(0)


def attempt(fn):
    try:
        y = fn()
        print("ok", tuple(y.shape), round(y.sum().item(), 3))
    except Exception as e:
        print(type(e).__name__, e)


m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
x = torch.randn(1, 2, 4, 5)
for size in [None, (7, 9), (8, 10), [1, 3, 8, 10], torch.Size([8, 9]), [7, 10]]:
    attempt(lambda: m(x, output_size=size))
attempt(lambda: m(x, output_size=(9, 9)))
attempt(lambda: m(x, output_size=[6, 9]))
attempt(lambda: m(x, output_size=(7,)))
attempt(lambda: m(x, output_size=(1, 7, 9, 9, 9)))
attempt(lambda: m(x[0], output_size=(8, 10)))
attempt(lambda: m(x[0], output_size=(2, 8, 10)))
attempt(lambda: m(x[0], output_size=(1, 2, 8, 10)))
m1 = nn.ConvTranspose1d(2, 2, 4, stride=3, dilation=2, groups=2)
x1 = torch.randn(2, 2, 5)
for size in [None, [19], [21], (2, 2, 20)]:
    attempt(lambda: m1(x1, output_size=size))
attempt(lambda: m1(x1, output_size=[22]))
attempt(lambda: m1(x1, output_size=[18]))
m3 = nn.ConvTranspose3d(1, 2, 2, stride=(2, 3, 2), padding=(0, 1, 0))
x3 = torch.randn(1, 1, 2, 3, 2)
y = m3(x3, output_size=(5, 8, 4))
print(tuple(y.shape), round(y.sum().item(), 4))
y.pow(2).sum().backward()
print(round(m3.weight.grad.sum().item(), 4), round(m3.bias.grad.sum().item(), 4))
attempt(lambda: m3(x3, output_size=(5, 10, 4)))
# output_size overrides the module's own output_padding
m4 = nn.ConvTranspose2d(1, 1, 2, stride=3, output_padding=1)
x4 = torch.randn(1, 1, 3, 3)
attempt(lambda: m4(x4))
attempt(lambda: m4(x4, output_size=(8, 10)))
