# torch.cpu.amp: PyTorch's deprecated spellings of autocast('cpu') and
# GradScaler('cpu'), with its FutureWarnings.
import torch
import torch.amp as _amp


class autocast(_amp.autocast):
    # torch.cpu.amp.autocast: the deprecated spelling of autocast('cpu').
    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        _amp._warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` "
                   "instead.", FutureWarning)
        super().__init__('cpu', dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(_amp.GradScaler):
    # torch.cpu.amp.GradScaler: the deprecated spelling of GradScaler('cpu').
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        _amp._warn("`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cpu', "
                   "args...)` instead.", FutureWarning)
        super().__init__('cpu', init_scale, growth_factor, backoff_factor, growth_interval, enabled)
