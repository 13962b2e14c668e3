# A divergence guard, `if not (loss < limit)`, in a training step that turns
# hot: `not t` needs the tensor's truth value.
# expect graphs: 0
# expect breaks: none
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
