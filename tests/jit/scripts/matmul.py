import torch

# Large enough (128^3 multiply-adds) for the float32 product to go to oneDNN.
a = torch.ones(128, 128)
print((a @ a)[0, 0].item())
