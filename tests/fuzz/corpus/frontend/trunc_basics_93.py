"""Module docstring."""
import math
import torch.nn as nn
from torch import optim as o, tenso