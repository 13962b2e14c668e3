# torch.utils.checkpoint: PyTorch recomputes a checkpointed segment in the
# backward pass instead of keeping its activations, restoring the RNG state
# so the recomputation draws what the forward drew. The values and gradients
# are those of running the segment once, which is what Kiln does: it keeps
# the activations (the memory saving is not reproduced).
import torch


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check='default', debug=False,
               preserve_rng_state=True, **kwargs):
    if use_reentrant and kwargs:
        raise ValueError('Unexpected keyword arguments: ' + ','.join(arg for arg in kwargs))
    return function(*args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    for function in functions:
        input = function(input)
    return input
