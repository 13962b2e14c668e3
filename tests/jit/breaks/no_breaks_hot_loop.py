# A pure tensor loop: every iteration is one graph and nothing breaks.
# expect graphs: 0
# expect breaks: none
import torch

torch.manual_seed(13)
w = torch.randn(8, 8) * 0.1
h = torch.ones(4, 8)
for i in range(30):
    h = torch.tanh(h @ w + 0.5)
print(h)
