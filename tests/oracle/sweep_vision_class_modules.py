# type() of nn layers and data classes names PyTorch's defining module;
# a script's own classes stay in __main__.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, RandomSampler, TensorDataset, Subset, BatchSampler


class Net(nn.Module):
    def forward(self, x):
        return x


print(type(nn.Linear(2, 2)), type(nn.Conv2d(1, 1, 1)), type(nn.BatchNorm2d(2)))
print(type(nn.ReLU()), type(nn.Sequential()), type(nn.MaxPool2d(2)), type(nn.CrossEntropyLoss()))
print(nn.Dropout2d.__module__, nn.Upsample.__module__, nn.PixelShuffle.__module__, nn.Flatten.__module__)
print(type(Net()), Net.__module__, isinstance(Net(), nn.Module))
ds = TensorDataset(torch.arange(3))
print(type(ds), type(Subset(ds, [0])), type(DataLoader(ds)), type(RandomSampler(ds)))
print(BatchSampler.__module__, type(DataLoader(ds).sampler).__name__)
