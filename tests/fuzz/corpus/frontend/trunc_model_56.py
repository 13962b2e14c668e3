import torch
import torch.nn as nn
import torch.nn.funct