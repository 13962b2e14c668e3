# torch.optim.optimizer: the module that defines Optimizer in PyTorch, which
# custom optimizers import their base class from.
from torch.optim import Optimizer
