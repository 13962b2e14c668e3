# torch.backends.cudnn as a module of its own, so `import torch.backends.cudnn
# as cudnn` works as in PyTorch. The switches are plain module attributes that
# scripts set and read back; Kiln has no cuDNN, so none of them changes a result.
import contextlib

import torch

enabled = True
deterministic = False
benchmark = False
benchmark_limit = 10
allow_tf32 = True


def is_available():
    return False


def version():
    return None


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    # Set the switches for the block and put the old values back after it.
    module = torch.backends.cudnn
    new = {'enabled': enabled, 'benchmark': benchmark, 'benchmark_limit': benchmark_limit,
           'deterministic': deterministic, 'allow_tf32': allow_tf32}
    old = {name: getattr(module, name) for name in new}
    for name, value in new.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in old.items():
            setattr(module, name, value)
