# torch.jit: TorchScript entry points scripts call on their models. Kiln
# compiles any script by tracing already, so script() and trace() hand back
# what they were given (a function or module that runs, and is compiled, as
# before); ignore/unused/export are the identity decorators.
import torch


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    return obj


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None,
          example_kwarg_inputs=None, _store_inputs=True):
    return func


def ignore(drop=False, **kwargs):
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def is_scripting():
    return False


def is_tracing():
    return False


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    return mod
