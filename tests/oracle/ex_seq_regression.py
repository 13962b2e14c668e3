# The pytorch/examples regression script: fit a random degree-4 polynomial
# with a single Linear layer on polynomial features, manual SGD update,
# smooth_l1_loss, poly_desc string building with tensor __format__.
from __future__ import print_function
from itertools import count
import torch
import torch.nn.functional as F

torch.manual_seed(3)
POLY_DEGREE = 4
W_target = torch.randn(POLY_DEGREE, 1) * 5
b_target = torch.randn(1) * 5

def make_features(x):
    """Builds features i.e. a matrix with columns [x, x^2, x^3, x^4]."""
    x = x.unsqueeze(1)
    return torch.cat([x ** i for i in range(1, POLY_DEGREE+1)], 1)

def f(x):
    """Approximated function."""
    return x.mm(W_target) + b_target.item()

def poly_desc(W, b):
    """Creates a string description of a polynomial."""
    result = 'y = '
    for i, w in enumerate(W):
        result += '{:+.2f} x^{} '.format(w, i + 1)
    result += '{:+.2f}'.format(b[0])
    return result

def get_batch(batch_size=32):
    """Builds a batch i.e. (x, f(x)) pair."""
    random = torch.randn(batch_size)
    x = make_features(random)
    y = f(x)
    return x, y

fc = torch.nn.Linear(W_target.size(0), 1)
print(fc)
for batch_idx in count(1):
    batch_x, batch_y = get_batch()
    fc.zero_grad()
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()
    output.backward()
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)
    if batch_idx % 25 == 0:
        print('batch {:3d} loss {:.6f} w0 {:.5f}'.format(batch_idx, loss, fc.weight[0, 0].item()))
    if loss < 1e-3 or batch_idx >= 150:
        break

print('Loss: {:.6f} after {} batches'.format(loss, batch_idx))
print('==> Learned function:\t' + poly_desc(fc.weight.view(-1), fc.bias))
print('==> Actual function:\t' + poly_desc(W_target.view(-1), b_target))
x = make_features(torch.tensor([1.0, -2.0]))
print(x.tolist())
print('{:.3f} {:>8.2f} {:+.1e}'.format(fc.bias[0], W_target[1, 0], b_target.squeeze()))
print(format(W_target[0, 0], '.4f'), f'{b_target[0]:+.3f}', '{}'.format(torch.tensor(2.5)))
