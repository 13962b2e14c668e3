# torch.compile and torch.compiler, written in Kiln's Python subset and run at
# interpreter start-up as the module "torch.compiler". The work happens in
# torch._C._jit_call_compiled: the call runs as one JIT region whose tensor
# work is captured into graphs (jit/runtime.cpp); without the JIT (a bare
# interpreter) it is a plain call.

import torch
import torch.nn

_BACKENDS = {'kiln': 'kiln', 'inductor': 'kiln', 'eager': 'eager', 'aot_eager': 'eager'}


def _check_backend(backend):
    if callable(backend):
        raise NotImplementedError('kiln: custom torch.compile backends are not supported; '
                                  'use backend="kiln" (or "inductor") or backend="eager"')
    if backend not in _BACKENDS:
        raise RuntimeError('invalid backend ' + repr(backend) + ': kiln knows ' +
                           ', '.join(repr(b) for b in _BACKENDS))
    return _BACKENDS[backend]


class _CompiledFunction:
    def __init__(self, fn, fullgraph, dynamic, backend):
        self._torchdynamo_orig_callable = fn
        self._fullgraph = fullgraph
        self._dynamic = dynamic
        self._backend = backend
        self.__name__ = getattr(fn, '__name__', 'compiled')
        self.__wrapped__ = fn

    def __call__(self, *args, **kwargs):
        return torch._C._jit_call_compiled(self, self._torchdynamo_orig_callable, args, kwargs)

    def __repr__(self):
        return '<compiled ' + repr(self._torchdynamo_orig_callable) + '>'


class OptimizedModule(torch.nn.Module):
    def __init__(self, mod, fullgraph, dynamic, backend):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, '_fullgraph', fullgraph)
        object.__setattr__(self, '_dynamic', dynamic)
        object.__setattr__(self, '_backend', backend)
        object.__setattr__(self, 'training', mod.training)

    def __call__(self, *args, **kwargs):
        return torch._C._jit_call_compiled(self, self._orig_mod, args, kwargs)

    def forward(self, *args, **kwargs):
        return torch._C._jit_call_compiled(self, self._orig_mod.forward, args, kwargs)

    def __getattr__(self, name):
        return getattr(self._orig_mod, name)

    def train(self, mode=True):
        self._orig_mod.train(mode)
        object.__setattr__(self, 'training', mode)
        return self

    def eval(self):
        return self.train(False)

    def __repr__(self):
        return 'OptimizedModule(\n  (_orig_mod): ' + repr(self._orig_mod).replace('\n', '\n  ') + '\n)'


def compile(model=None, *, fullgraph=False, dynamic=None, backend='inductor', mode=None, options=None,
            disable=False):
    backend = _check_backend(backend)
    if mode is not None and mode not in ('default', 'reduce-overhead', 'max-autotune',
                                         'max-autotune-no-cudagraphs'):
        raise RuntimeError('Unrecognized mode=' + str(mode) + ', should be one of: default, reduce-overhead, '
                           'max-autotune, max-autotune-no-cudagraphs')
    if model is None:
        def wrap(fn):
            return compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                           options=options, disable=disable)
        return wrap
    if disable:
        return model
    if isinstance(model, torch.nn.Module):
        return OptimizedModule(model, fullgraph, dynamic, backend)
    if not callable(model):
        raise RuntimeError('torch.compile: expected a callable or a Module, got ' + type(model).__name__)
    return _CompiledFunction(model, fullgraph, dynamic, backend)


class _DisabledFunction:
    def __init__(self, fn):
        self._torchdynamo_disable = fn
        self.__name__ = getattr(fn, '__name__', 'disabled')
        self.__wrapped__ = fn

    def __call__(self, *args, **kwargs):
        return torch._C._jit_call_disabled(self._torchdynamo_disable, args, kwargs)


def disable(fn=None, recursive=True, reason=None):
    if fn is None:
        def wrap(f):
            return disable(f, recursive, reason)
        return wrap
    return _DisabledFunction(fn)


def reset():
    torch._C._jit_reset()


def is_compiling():
    return False


torch.compile = compile
