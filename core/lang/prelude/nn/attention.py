# torch.nn.attention: SDPBackend and the sdpa_kernel context manager. Kiln
# has one scaled_dot_product_attention (the numbers of PyTorch's default CPU
# path), so a backend choice only decides whether any CPU backend (math or
# flash attention) may run: with neither, the call fails as in PyTorch.
import torch
import torch.amp as _amp
import torch.nn.functional as F


class _SDPBackend:
    def __init__(self, name, value):
        self.name = name
        self.value = value

    def __repr__(self):
        return f"<SDPBackend.{self.name}: {self.value}>"

    def __str__(self):
        return f"SDPBackend.{self.name}"

    def __hash__(self):
        return hash(self.value)


class SDPBackend:
    __members__ = {}


for _name, _value in (('ERROR', -1), ('MATH', 0), ('FLASH_ATTENTION', 1), ('EFFICIENT_ATTENTION', 2),
                      ('CUDNN_ATTENTION', 3), ('OVERRIDEABLE', 4)):
    setattr(SDPBackend, _name, _SDPBackend(_name, _value))
    SDPBackend.__members__[_name] = getattr(SDPBackend, _name)

_BACKENDS = ('MATH', 'FLASH_ATTENTION', 'EFFICIENT_ATTENTION', 'CUDNN_ATTENTION', 'OVERRIDEABLE')
_enabled = {name: True for name in _BACKENDS}
_sdpa = F.scaled_dot_product_attention


def _no_backend(*args, **kwargs):
    raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This is likely due to "
                       "turning off both the math kernel and the fused kernels.")


def _apply(enabled):
    _enabled.update(enabled)
    runnable = _enabled['MATH'] or _enabled['FLASH_ATTENTION']
    F.scaled_dot_product_attention = _sdpa if runnable else _no_backend


class sdpa_kernel:
    def __init__(self, backends, set_priority=False):
        if isinstance(backends, _SDPBackend):
            backends = [backends]
        if not isinstance(backends, (list, tuple)) or any(not isinstance(b, _SDPBackend) for b in backends):
            raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend instances, "
                                 f"got {type(backends).__name__}")
        self._names = set(b.name for b in backends)

    def __enter__(self):
        self._prev = dict(_enabled)
        _apply({name: name in self._names for name in _BACKENDS})
        return {}

    def __exit__(self, *args):
        _apply(self._prev)
        return False

    def __call__(self, func):
        return _amp._run_inside(self, func)


def _flag(name):
    return lambda: _enabled[name]


def _setter(name):
    return lambda enabled: _apply({name: bool(enabled)})


_cuda = torch.backends.cuda
_cuda.math_sdp_enabled, _cuda.enable_math_sdp = _flag('MATH'), _setter('MATH')
_cuda.flash_sdp_enabled, _cuda.enable_flash_sdp = _flag('FLASH_ATTENTION'), _setter('FLASH_ATTENTION')
_cuda.mem_efficient_sdp_enabled = _flag('EFFICIENT_ATTENTION')
_cuda.enable_mem_efficient_sdp = _setter('EFFICIENT_ATTENTION')
_cuda.cudnn_sdp_enabled, _cuda.enable_cudnn_sdp = _flag('CUDNN_ATTENTION'), _setter('CUDNN_ATTENTION')
