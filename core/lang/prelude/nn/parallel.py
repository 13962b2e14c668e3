# torch.nn.parallel for one device: Kiln runs a script on a single device, so
# DataParallel and data_parallel run the wrapped module as it is, which is
# what PyTorch does when there is one device (or none) to spread over.
import torch
from torch.nn import Module


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.dim = dim
        self.device_ids = [] if device_ids is None else list(device_ids)
        self.output_device = output_device

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    if not torch.cuda.is_available():  # PyTorch finds no device to run on
        raise RuntimeError("device type could not be determined")
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    return module(*inputs, **(module_kwargs or {}))


# nn.DataParallel names the same class, as in PyTorch.
torch.nn.DataParallel = DataParallel


class DistributedDataParallel(Module):
    # Needs a process group, which a single Kiln process never has: building
    # one fails as in PyTorch without init_process_group.
    def __init__(self, module, *args, **kwargs):
        super().__init__()
        torch.distributed.get_rank()
        self.module = module

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
