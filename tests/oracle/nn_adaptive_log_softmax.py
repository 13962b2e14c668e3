# nn.AdaptiveLogSoftmaxWithLoss: parameters, repr, the (output, loss) pair
# with its gradients, log_prob, predict and the errors.
import torch
import torch.nn as nn


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
m = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0)
print(m)
print([(k, tuple(p.shape)) for k, p in m.named_parameters()])
x = torch.randn(5, 8, requires_grad=True)
t = torch.tensor([0, 4, 9, 2, 7])
out = m(x, t)
print(type(out).__name__, r(out.output), round(out.loss.item(), 4), out.loss.grad_fn.name())
out.loss.backward()
print(r(x.grad[0]), r(m.head.weight.grad[0]), r(m.tail[1][1].weight.grad[0]))
print(out[0].shape, out.loss.shape)
lp = m.log_prob(x)
print(tuple(lp.shape), r(lp[0]), r(lp.exp().sum(1)))
print(r(m.predict(x)), r(lp.argmax(1)))
with torch.no_grad():
    m.head.weight[3] += x[0] + x[2]
print(r(m.predict(x)), r(m.log_prob(x).argmax(1)))
with torch.no_grad():
    m.head.weight[4] += 10 * x.sum(0)
print(r(m.predict(x)), r(m.log_prob(x).argmax(1)))
single = m(x[1], t[1])
print(tuple(single.output.shape), round(single.output.item(), 4), round(single.loss.item(), 4))
m2 = nn.AdaptiveLogSoftmaxWithLoss(4, 6, (2,), head_bias=True)
print(m2, r(m2.predict(torch.randn(3, 4))))
for f in [lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, []), lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]),
          lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 10]), lambda: m(x, torch.tensor([0, 1, 2, 3, 10])),
          lambda: m(x, t[:3]), lambda: m(x, t.view(5, 1)), lambda: m(x[0], t)]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)
