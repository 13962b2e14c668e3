# torch.amp, torch.autocast and torch.cuda.amp. Mixed precision needs a
# device that computes in float16/bfloat16: with no GPU, autocast for cuda is
# disabled (PyTorch disables it too when CUDA is unavailable) and GradScaler
# passes everything through, so a mixed-precision training loop runs in
# float32. CPU autocast to bfloat16 would change every matmul's numbers,
# which Kiln does not reproduce: it is refused.
import torch


class autocast:
    def __init__(self, device_type='cuda', dtype=None, enabled=True, cache_enabled=None):
        if enabled and device_type == 'cpu':
            raise NotImplementedError("kiln: torch.autocast(device_type='cpu') (bfloat16 matmuls on the CPU) is "
                                      "not supported; run in float32 or pass enabled=False")
        self.device_type = device_type
        self.fast_dtype = dtype
        self._enabled = False

    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False

    def __call__(self, fn):
        return fn


class GradScaler:
    def __init__(self, device='cuda', init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._enabled = False
        self._init_scale = init_scale

    def is_enabled(self):
        return False

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass


class _CudaAmp:
    def __init__(self):
        self.autocast = lambda enabled=True, dtype=None, cache_enabled=True: autocast('cuda', dtype, enabled)
        self.GradScaler = GradScaler


torch.autocast = autocast
torch.cuda.amp = _CudaAmp()
