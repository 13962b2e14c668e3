# torch.cpu: the CPU device queries scripts make (torch.cpu.amp is cpu/amp.py).


def is_available():
    return True


def device_count():
    return 1


def current_device():
    return 'cpu'


def synchronize(device=None):
    pass
