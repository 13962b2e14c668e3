# A compiled function that prints only Python values and tensors that are not
# pending (its inputs): no graph break.
# Both calls hit 1 graph (x * 2 is computed outside the region).
# expect graphs: 1
# expect breaks: none
# expect region: compiled mlp
import torch


@torch.compile
def mlp(x, w1, w2):
    print("input:", x)
    h = torch.relu(x @ w1)
    print("hidden size", h.shape[1])
    return h @ w2


x = torch.tensor([[1.0, 2.0]])
w1 = torch.tensor([[0.5, -1.0, 1.0], [0.25, 1.0, 0.0]])
w2 = torch.tensor([[1.0], [2.0], [3.0]])
print(mlp(x, w1, w2))
print(mlp(x * 2, w1, w2))
