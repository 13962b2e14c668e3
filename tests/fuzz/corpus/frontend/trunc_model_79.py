import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manua