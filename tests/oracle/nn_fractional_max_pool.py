# F.fractional_max_pool2d and nn.FractionalMaxPool2d: ATen's window starts
# from the random samples (drawn as PyTorch draws them), indices, gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(2, 2, 7, 6, requires_grad=True)
y, i = F.fractional_max_pool2d(x, 2, output_size=(4, 3), return_indices=True)
print(tuple(y.shape), y.grad_fn.name(), r(y[0, 0]), i[0, 0].flatten().tolist(), i.dtype)
y.backward(torch.arange(48.0).view(2, 2, 4, 3))
print(r(x.grad[1, 1]))
print(r(torch.rand(2)))
samples = torch.tensor([[[0.1, 0.9], [0.5, 0.5]], [[0.99, 0.0], [0.3, 0.7]]])
y = F.fractional_max_pool2d(x, (3, 2), output_ratio=(0.5, 0.5), _random_samples=samples)
print(tuple(y.shape), r(y[1, 0]))
y, i = F.fractional_max_pool2d(x[0], 3, output_size=2, return_indices=True, _random_samples=samples[:1])
print(tuple(y.shape), r(y), i.flatten().tolist())
print(r(F.fractional_max_pool2d(x.double(), 2, output_ratio=(0.6, 0.5), _random_samples=samples.double())[0, 1]))
ties = torch.zeros(1, 1, 4, 4)
print(F.fractional_max_pool2d(ties, 2, output_size=2, return_indices=True, _random_samples=samples[:1, :1])[1].tolist())

torch.manual_seed(1)
m = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
print(m, nn.FractionalMaxPool2d(2, output_size=3, return_indices=True), list(m.state_dict().keys()))
print(r(m(x[:1, :1])))
m = nn.FractionalMaxPool2d(2, output_size=3, return_indices=True, _random_samples=samples)
y, i = m(x)
print(r(y[0, 1]), i[0, 1].flatten().tolist(), list(m.state_dict().keys()))

for f in [lambda: F.fractional_max_pool2d(x, 2), lambda: F.fractional_max_pool2d(x, 2, output_size=(7, 2)),
          lambda: F.fractional_max_pool2d(x, (2, 4), output_size=(3, 4)),
          lambda: F.fractional_max_pool2d(x[0, 0, 0], 2, output_size=1), lambda: nn.FractionalMaxPool2d(2),
          lambda: nn.FractionalMaxPool2d(2, 3, 0.5), lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5),
          lambda: F.fractional_max_pool2d(x, 2, output_ratio=0.5),
          lambda: F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5, 0.5))]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)
