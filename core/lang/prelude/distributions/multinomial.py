# torch.distributions.multinomial: where PyTorch defines Multinomial.
from torch.distributions import Multinomial
