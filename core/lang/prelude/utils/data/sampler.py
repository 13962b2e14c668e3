# torch.utils.data.sampler, .dataset and .dataloader: PyTorch's homes of the
# classes that torch.utils.data (utils/data.py here) defines, for scripts that
# import them from there.
from torch.utils.data import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                              WeightedRandomSampler)
