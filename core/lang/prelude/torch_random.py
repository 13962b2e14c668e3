# torch.random: the default generator's functions under this module's name
# (torch.random.manual_seed(0)), and fork_rng, which restores the generator's
# state on leaving its block. Kiln draws the numbers of every device from the
# one default generator, so its state is all there is to fork.
import contextlib
import torch

manual_seed = torch.manual_seed
seed = torch.seed
initial_seed = torch.initial_seed
get_rng_state = torch.get_rng_state
set_rng_state = torch.set_rng_state
Generator = torch.Generator


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller='fork_rng', _devices_kw='devices', device_type='cuda'):
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
