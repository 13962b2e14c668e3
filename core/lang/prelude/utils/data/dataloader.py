# torch.utils.data.dataloader: see utils/data/sampler.py.
from torch.utils.data import DataLoader, default_collate, default_convert, get_worker_info
