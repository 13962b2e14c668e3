# Python floats that only feed tensor arithmetic (a learning rate, step *
# 0.01) are graph inputs, not constants: new values every call never
# recompile, and the results follow the new values.
#
# expect regions: 1
# expect recompiles: 0
# expect in compiled:sgd_like graphs: 1
# expect in compiled:sgd_like runs: 4
# expect eager_runs: 0
# expect breaks: 0
import torch


def sgd_like(p, g, lr, step):
    return p - lr * g + step * 0.01


compiled = torch.compile(sgd_like)
p = torch.tensor([1.0, -2.0, 3.0])
g = torch.tensor([0.5, 0.25, -1.0])
p = compiled(p, g, 0.1, 0)
print(p)
p = compiled(p, g, 0.05, 1)
print(p)
p = compiled(p, g, 0.025, 2)
print(p)
p = compiled(p, g, 0.0125, 3)
print(p)
