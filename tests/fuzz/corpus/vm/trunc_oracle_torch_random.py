# Random numbers: PyTorch's CPU generator reproduced bit for bit after manual_seed.
import torch
torch.manual_seed(0)
print([round(v, 6) for v in torch.rand(5).tolist()])
print([round(v, 6) for v in torch.randn(5).tolist()])
print([round(v, 6) for v in torch.randn(2, 9).f