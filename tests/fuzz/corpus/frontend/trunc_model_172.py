import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super