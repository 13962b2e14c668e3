# torch.backends and the global switches scripts set for reproducibility or
# speed. Kiln's CPU kernels are deterministic and compute float32 matmuls in
# float32, so the switches are recorded (and read back) but change nothing;
# torch.use_deterministic_algorithms(True) holds already. torch.backends.cudnn
# is a module of its own (backends/cudnn.py).
import torch


class _Flags:
    def __init__(self, **flags):
        for name, value in flags.items():
            setattr(self, name, value)

    def is_available(self):
        return False


class _Backends:
    def __init__(self):
        self.cuda = _Flags()
        self.cuda.matmul = _Flags(allow_tf32=False, allow_fp16_reduced_precision_reduction=True)
        self.mps = _Flags()
        self.mkldnn = _Flags(enabled=True)
        self.openmp = _Flags()
        self.opt_einsum = _Flags(enabled=True)


backends = _Backends()
cuda = backends.cuda
mps = backends.mps
mkldnn = backends.mkldnn

_state = {'deterministic': False, 'warn_only': False, 'matmul_precision': 'highest'}


def _use_deterministic_algorithms(mode, *, warn_only=False):
    _state['deterministic'] = bool(mode)
    _state['warn_only'] = warn_only


def _are_deterministic_algorithms_enabled():
    return _state['deterministic']


def _set_float32_matmul_precision(precision):
    if precision not in ('highest', 'high', 'medium'):
        raise RuntimeError(f"Invalid precision: {precision}. Expected one of 'highest', 'high', 'medium'")
    _state['matmul_precision'] = precision


def _get_float32_matmul_precision():
    return _state['matmul_precision']


torch.use_deterministic_algorithms = _use_deterministic_algorithms
torch.are_deterministic_algorithms_enabled = _are_deterministic_algorithms_enabled
torch.set_float32_matmul_precision = _set_float32_matmul_precision
torch.get_float32_matmul_precision = _get_float32_matmul_precision
