# A divergence guard, `if not (loss < limit)`, in a training step that turns
# hot: `not t` needs the tensor's truth value.
# train_step's third call (i=2) is a region, the loop one from i=3: in each,
# one graph up to the `not` and one after it. 3 breaks (i = 2, 3, 4).
# expect graphs: 4
# expect breaks: data_dependent_branch@13 x3
# expect region: function train_step
import torch


def train_step(w, x, lr):
    loss = (x @ w).pow(2).mean()
    if not (loss < 1e4):
        return w, 0
    return w - lr * x.t() @ (x @ w) / x.shape[0], 1


torch.manual_seed(7)
w = torch.randn(3, 1)
x = torch.randn(10, 3)
taken = 0
for i in range(5):
    w, ok = train_step(w, x, 0.1)
    taken += ok
print(taken, w.flatten())
