# torch.nn.utils.stateless: the pre-2.0 home of functional_call, deprecated in
# favour of torch.func.functional_call (prelude/func.py), which it calls.
import warnings

import torch


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    warnings.warn('`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed '
                  'in a future version of PyTorch. Please use `torch.func.functional_call` instead which is a '
                  'drop-in replacement.', FutureWarning, stacklevel=2)
    return torch.func._stateless_call(module, parameters_and_buffers, args, kwargs, tie_weights, strict)
