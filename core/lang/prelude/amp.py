# torch.amp: autocast and GradScaler. CPU autocast is real: the state lives
# in C++ (torch.set_autocast_enabled, ...) and dispatch casts the inputs of
# the ops on PyTorch's CPU lists (core/autocast.cpp). With no GPU, autocast
# for cuda is disabled (PyTorch disables it too when CUDA is unavailable) and
# a cuda GradScaler passes everything through.
import torch

_nesting = [0]
_cache = {'enabled': True}


def _warn(message, category=None):
    import warnings  # here: loading it at start-up would lengthen every script's start
    warnings.warn(message, category or UserWarning, stacklevel=3)


def _autocast_increment_nesting():
    _nesting[0] += 1
    return _nesting[0]


def _autocast_decrement_nesting():
    _nesting[0] -= 1
    return _nesting[0]


def _is_autocast_cache_enabled():
    return _cache['enabled']


def _set_autocast_cache_enabled(enabled):
    _cache['enabled'] = bool(enabled)


def _clear_autocast_cache():
    pass  # casts are not cached: each listed op casts its inputs again


def _run_inside(ctx, func):
    # A context manager used as a decorator: each call runs inside it.
    def decorated(*args, **kwargs):
        with ctx:
            return func(*args, **kwargs)
    return decorated


def is_autocast_available(device_type):
    return device_type in ('cpu', 'cuda')


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = torch.get_autocast_dtype(device_type) if dtype is None else dtype
        self._cache_enabled = torch.is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        if enabled and device_type == 'cpu' and self.fast_dtype not in (torch.bfloat16, torch.float16):
            _warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                  "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.")
            enabled = False
        if enabled and device_type == 'cuda':
            if not torch.cuda.is_available():
                _warn("CUDA is not available or torch_xla is imported. Disabling autocast.")
            enabled = False  # Kiln computes in float32 on its devices
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = torch.is_autocast_cache_enabled()
        self.prev = torch.is_autocast_enabled(self.device)
        self.prev_fastdtype = torch.get_autocast_dtype(self.device)
        torch.set_autocast_enabled(self.device, self._enabled)
        torch.set_autocast_dtype(self.device, self.fast_dtype)
        torch.autocast_increment_nesting()
        torch.set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if torch.autocast_decrement_nesting() == 0:
            torch.clear_autocast_cache()
        torch.set_autocast_enabled(self.device, self.prev)
        torch.set_autocast_dtype(self.device, self.prev_fastdtype)
        torch.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        return _run_inside(self, func)


_READY, _UNSCALED, _STEPPED = 0, 1, 2


class GradScaler:
    # Dynamic loss scaling as PyTorch's: the loss is multiplied by the scale,
    # step() unscales the gradients and skips the optimizer step when one is
    # inf or NaN, update() backs the scale off then (or grows it after
    # growth_interval clean steps).
    def __init__(self, device='cuda', init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled and device == 'cpu'  # cuda: no GPU computes in float16 here
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._scale = None
        self._growth_tracker = 0
        self._per_optimizer_states = {}

    def is_enabled(self):
        return self._enabled

    def _lazy_init(self):
        if self._scale is None:
            self._scale = torch.full((), self._init_scale, dtype=torch.float32)

    def scale(self, outputs):
        if not self._enabled:
            return outputs
        self._lazy_init()
        if isinstance(outputs, torch.Tensor):
            return outputs * self._scale
        if isinstance(outputs, (list, tuple)):
            scaled = [self.scale(o) for o in outputs]
            return scaled if isinstance(outputs, list) else tuple(scaled)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _state(self, optimizer):
        return self._per_optimizer_states.setdefault(id(optimizer), {'stage': _READY, 'found_inf': None})

    def unscale_(self, optimizer):
        if not self._enabled:
            return
        state = self._state(optimizer)
        if state['stage'] == _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state['stage'] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        self._lazy_init()
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = False
        with torch.no_grad():
            for group in optimizer.param_groups:
                for p in group['params']:
                    if p.grad is None:
                        continue
                    if p.grad.dtype == torch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if not bool(torch.isfinite(p.grad).all()):
                        found_inf = True
                    p.grad.mul_(inv_scale)
        state['found_inf'] = found_inf
        state['stage'] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if 'closure' in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        state = self._state(optimizer)
        if state['stage'] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state['stage'] == _READY:
            self.unscale_(optimizer)
        retval = None
        if not state['found_inf']:
            retval = optimizer.step(*args, **kwargs)
        state['stage'] = _STEPPED
        return retval

    def update(self, new_scale=None):
        if not self._enabled:
            return
        self._lazy_init()
        if new_scale is not None:
            self._scale.fill_(new_scale if not isinstance(new_scale, torch.Tensor) else new_scale.item())
        else:
            states = [s for s in self._per_optimizer_states.values() if s['found_inf'] is not None]
            if not states:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(s['found_inf'] for s in states):
                self._scale.mul_(self._backoff_factor)
                self._growth_tracker = 0
            elif self._growth_tracker + 1 == self._growth_interval:
                grown = self._scale * self._growth_factor
                if bool(torch.isfinite(grown)):
                    self._scale.copy_(grown)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
        self._per_optimizer_states = {}

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def state_dict(self):
        if not self._enabled:
            return {}
        return {'scale': self.get_scale(), 'growth_factor': self._growth_factor,
                'backoff_factor': self._backoff_factor, 'growth_interval': self._growth_interval,
                '_growth_tracker': self._growth_tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict['scale']
        if self._scale is not None:
            self._scale.fill_(state_dict['scale'])
        self._growth_factor = state_dict['growth_factor']
        self._backoff_factor = state_dict['backoff_factor']
        self._growth_interval = state_dict['growth_interval']
        self._growth_tracker = state_dict['_growth_tracker']


class _CudaAmp:
    def __init__(self):
        self.autocast = lambda enabled=True, dtype=None, cache_enabled=True: autocast('cuda', dtype, enabled)
        self.GradScaler = GradScaler


class _AutocastMode:
    autocast = autocast


torch.autocast = autocast
torch.autocast_increment_nesting = _autocast_increment_nesting
torch.autocast_decrement_nesting = _autocast_decrement_nesting
torch.is_autocast_cache_enabled = _is_autocast_cache_enabled
torch.set_autocast_cache_enabled = _set_autocast_cache_enabled
torch.clear_autocast_cache = _clear_autocast_cache
autocast_mode = _AutocastMode()
torch.cuda.amp = _CudaAmp()
