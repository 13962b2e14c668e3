# A pure tensor loop: every iteration is one graph and nothing breaks.
# From the back-edge after iteration 2 each iteration is the same graph; h is
# computed when printed (the last iteration ran at its back-edge).
# expect graphs: 1
# expect breaks: none
# expect region: loop loop at no_breaks_hot_loop.py:12 in <module>
import torch

torch.manual_seed(13)
w = torch.randn(8, 8) * 0.1
h = torch.ones(4, 8)
for i in range(30):
    h = torch.tanh(h @ w + 0.5)
print(h)
