# A divergence guard, `if not (loss < limit)`, in a training step that turns
# hot: `not t` needs the tensor's truth value. The loop is a region from i=2
# (train_step's third call is inlined): in each iteration, one graph up to the
# `not` and one after it (2 graphs, 3 runs each). 3 breaks (i = 2, 3, 4).
# expect graphs: 2
# expect breaks: data_dependent_branch@13 x3
# expect region: loop loop at branch_not_tensor.py:22 in <module>
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
