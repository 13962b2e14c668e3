# Parity edges met while porting d2l scripts: range and list indices, numpy-style
# keyword aliases (axis, keepdims), random.choices and distributions.Multinomial.
import random
import torch

x = torch.arange(12.).reshape(3, 4)
print(x[range(3)].shape, x[range(0, 3, 2)], x[range(2), range(1, 3)], x[range(-1, -3, -1)])
print(x[:, range(0)].shape, x[range(0)].shape)
y = x.clone()
y[range(2), range(2)] = -1.0
print(y)
print(x[range(1), 2:])
try:
    x[range(5)]
except IndexError as e:
    print('IndexError', e)
print(torch.sum(x, axis=1), x.mean(axis=0, keepdims=True), torch.max(x, axis=1).values)
print(x.std(axis=0), torch.var(x, axis=1), x.cumsum(axis=0)[2], torch.prod(x + 1, axis=1))
print(torch.logsumexp(x, axis=1), x.softmax(axis=0)[0], torch.amax(x, axis=0), x.norm(dim=1))
print(torch.all(x > 0, axis=1), x.any(axis=0), torch.median(x, axis=1).values, torch.mean(input=x))
try:
    torch.sum(x, axis=0, dim=1)
except TypeError as e:
    print('TypeError', e)
random.seed(3)
print(random.choices(['a', 'b', 'c'], k=5), random.choices(range(10), [1] * 10, k=3))
print(random.choices([1, 2, 3], cum_weights=[1, 5, 6], k=4), random.choices('xyz'))
for bad in (dict(weights=[1, 2]), dict(weights=[0, 0, 0]), dict(weights=[1, 2, 3], cum_weights=[1, 2, 3])):
    try:
        random.choices([1, 2, 3], **bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    random.choices([1, 2, 3], 2)
except TypeError as e:
    print('TypeError', e)
print(x[[]].shape)
print(x[:, []].shape)
print(torch.tensor([]).dtype, torch.tensor(range(3)).dtype)
from torch.distributions import multinomial
from torch.distributions.multinomial import Multinomial
m = multinomial.Multinomial(5, torch.tensor([0.2, 0.3, 0.5]))
print(m, m.mean, m.variance, m.batch_shape, m.event_shape, Multinomial is torch.distributions.Multinomial)
torch.manual_seed(0)
v = m.sample((2,))
print(v, m.log_prob(v))
m2 = torch.distributions.Multinomial(3, logits=torch.tensor([[0.0, float('-inf')], [1.0, 2.0]]))
s = m2.sample()
print(s, m2.log_prob(s), m2.sample((2, 3)).shape, m2.probs)
x = torch.arange(12.).reshape(3, 4)
print(x[[[0, 1], [1, 2]]], x[[0, slice(1, 3)]], x[[None, 1]].shape, x[[torch.tensor(1), 2]], x[[0.0, 2.9]])
x[[[0, 1], [1, 2]]] = 100.0
print(x)
