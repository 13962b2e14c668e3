# Layers: LayerNorm, Embedding (padding_idx), Dropout (train/eval), activations, Softmax, Identity.
import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(2, 5)
ln = nn.LayerNorm(5)
print(ln.weight.tolist(), ln.bias.tolist(), ln.normalized