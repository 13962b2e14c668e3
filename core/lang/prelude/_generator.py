# torch.Generator: a random number generator of its own for the generator=
# argument of random ops (torch.randperm(n, generator=g), t.normal_(...,
# generator=g)). Its state is an int64 tensor in the layout of core/random.h's
# Generator::save; the op bridge draws from it for the call and writes it
# back (core/lang/torch_random.cpp).
import torch


class Generator:
    def __init__(self, device='cpu'):
        device = torch.device(device)
        if device.type != 'cpu':
            raise RuntimeError("kiln: torch.Generator supports device='cpu' only; "
                               "random numbers for cuda tensors are drawn on the host")
        self.device = device
        self._state = torch._C._rng_state(67280421310721)

    def manual_seed(self, seed):
        self._state = torch._C._rng_state(seed)
        return self

    def seed(self):
        s = torch._C._rng_random_seed()
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return self._state[0].item()

    def get_state(self):
        return torch._C._rng_copy_state(self._state)  # copied at once (see torch_random.cpp)

    def set_state(self, new_state):
        self._state = torch._C._rng_copy_state(new_state)
        return self


torch.Generator = Generator
