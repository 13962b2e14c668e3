# torch.utils.data.dataset: see utils/data/sampler.py.
from torch.utils.data import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset,
                              TensorDataset, random_split)
