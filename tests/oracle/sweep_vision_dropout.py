# Channel dropout's random draws: dropout2d reads a 3-D input as (N, C, L)
# (one draw per row and channel), dropout1d's unbatched input is one sample;
# the stream after each call must stay in step with PyTorch's. dropout1d's
# rank check comes before the training flag.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings('ignore')
torch.manual_seed(0)
y = F.dropout2d(torch.ones(3, 2, 2), 0.5)
print(y.flatten().tolist(), torch.rand(2).tolist())
y = nn.Dropout2d(0.4)(torch.ones(4, 3, 2))
print(y[:, :, 0].tolist(), torch.rand(2).tolist())
y = F.dropout2d(torch.ones(2, 3, 2, 2), 0.5)
print(y[:, :, 0, 0].tolist(), torch.rand(2).tolist())
y = F.dropout2d(torch.ones(3, 4), 0.5)
print(y.tolist(), torch.rand(2).tolist())
y = F.dropout1d(torch.ones(3, 4), 0.5)
print(y.tolist(), torch.rand(2).tolist())
y = F.dropout1d(torch.ones(2, 3, 4), 0.5)
print(y[:, :, 0].tolist(), torch.rand(2).tolist())
y = nn.Dropout3d(0.5)(torch.ones(2, 1, 2, 2))
print(y[:, 0, 0].tolist(), torch.rand(2).tolist())
for training in (True, False):
    try:
        F.dropout1d(torch.ones(1, 2, 3, 4), 0.5, training=training)
        print('ok')
    except Exception as e:
        print(type(e).__name__, e)
