# torch.nn.utils.parametrize: a module's tensor computed on every read from stored originals.
# As in PyTorch, registering turns the module's class into a subclass "Parametrized<Class>" whose
# property of the tensor's name evaluates module.parametrizations[name], a ParametrizationList
# that holds the originals (original, or original0, original1, ... when right_inverse gives a
# sequence) and the chain of parametrization modules.

import torch
import torch.nn as nn
from contextlib import contextmanager

_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    # Within this context each parametrized tensor is computed once and reused.
    global _cache_enabled
    global _cache
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module, name, X):
    if isinstance(X, nn.Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


# PyTorch moves src's storage into dest (Tensor.set_), keeping dest's identity; copying the
# values keeps it as well and is the same where the shapes agree.
def _maybe_set(dest, src):
    if src is dest:
        return
    if dest.shape != src.shape:
        raise RuntimeError('kiln: right_inverse may not change the shape of the original tensor (got {}, '
                           'expected {})'.format(tuple(src.shape), tuple(dest.shape)))
    dest.copy_(src)


def _is_sequence(value):
    return isinstance(value, list) or isinstance(value, tuple)


class ParametrizationList(nn.ModuleList):
    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError('ParametrizationList requires one or more modules.')
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape = original.shape
        original_dtype = original.dtype
        with torch.no_grad():
            new = original
            for module in reversed(list(self)):
                if hasattr(module, 'right_inverse'):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, torch.Tensor) and not _is_sequence(new):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                             'Got {}'.format(type(new).__name__))
        self.is_tensor = isinstance(new, torch.Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            self._store_single(original, new)
        else:
            self._store_sequence(original, new)
        if not self.unsafe:
            self._check_result(original_dtype, original_shape)

    def _store_single(self, original, new):
        if original.dtype != new.dtype:
            raise ValueError('When `right_inverse` outputs one tensor, it may not change the dtype.\n'
                             'original.dtype: {}\nright_inverse(original).dtype: {}'.format(original.dtype, new.dtype))
        with torch.no_grad():
            _maybe_set(original, new)
        _register_parameter_or_buffer(self, 'original', original)

    def _store_sequence(self, original, new):
        for i, originali in enumerate(new):
            if not isinstance(originali, torch.Tensor):
                raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                                 'Got element {} of the sequence with type {}.'.format(i, type(originali).__name__))
            if isinstance(original, nn.Parameter):
                originali = nn.Parameter(originali, original.requires_grad)
            originali.requires_grad_(original.requires_grad)
            _register_parameter_or_buffer(self, 'original{}'.format(i), originali)

    def _check_result(self, original_dtype, original_shape):
        Z = self()
        if not isinstance(Z, torch.Tensor):
            raise ValueError('A parametrization must return a tensor. Got {}.'.format(type(Z).__name__))
        if Z.dtype != original_dtype:
            raise ValueError('Registering a parametrization may not change the dtype of the tensor, unless `unsafe` '
                             'flag is enabled.\nunparametrized dtype: {}\nparametrized dtype: {}'.format(
                                 original_dtype, Z.dtype))
        if Z.shape != original_shape:
            raise ValueError('Registering a parametrization may not change the shape of the tensor, unless `unsafe` '
                             'flag is enabled.\nunparametrized shape: {}\nparametrized shape: {}'.format(
                                 original_shape, Z.shape))

    # Assigning to the parametrized tensor: run the chain's right inverses backwards, store the result.
    def right_inverse(self, value):
        with torch.no_grad():
            for module in reversed(list(self)):
                if not hasattr(module, 'right_inverse'):
                    raise RuntimeError('parametrization {} does not implement right_inverse.'.format(
                        type(module).__name__))
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, torch.Tensor):
                    raise ValueError('`right_inverse` should return a tensor. Got {}'.format(type(value).__name__))
                if value.dtype != self.original.dtype:
                    raise ValueError('The tensor returned by `right_inverse` has dtype {} while `original` has dtype '
                                     '{}'.format(value.dtype, self.original.dtype))
                _maybe_set(self.original, value)
                return
            if not _is_sequence(value):
                raise ValueError("'right_inverse' must return a sequence of tensors. Got {}.".format(
                    type(value).__name__))
            if len(value) != self.ntensors:
                raise ValueError("'right_inverse' must return a sequence of tensors of length {}. Got a sequence of "
                                 'length {}.'.format(self.ntensors, len(value)))
            for i, tensor in enumerate(value):
                original_i = getattr(self, 'original{}'.format(i))
                if original_i.dtype != tensor.dtype:
                    raise ValueError('Tensor {} returned by `right_inverse` has dtype {} while `original{}` has dtype '
                                     '{}'.format(i, tensor.dtype, i, original_i.dtype))
                _maybe_set(original_i, tensor)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*[getattr(self, 'original{}'.format(i)) for i in range(self.ntensors)])
        for i in range(1, len(self)):
            x = self[i](x)
        return x


def _parametrized_value(module, tensor_name):
    parametrization = module.parametrizations[tensor_name]
    if not _cache_enabled:
        return parametrization()
    key = (id(module), tensor_name)
    tensor = _cache.get(key)
    if tensor is None:
        tensor = parametrization()
        _cache[key] = tensor
    return tensor


def _inject_new_class(module):
    base = module.__class__

    class Parametrized(base):
        # Assignments to a parametrized name go to its right_inverse, as PyTorch's property
        # setter does (Kiln's object.__setattr__ bypasses properties, so this routes them).
        def __setattr__(self, name, value):
            parametrizations = self.__dict__.get('parametrizations')
            if parametrizations is not None and name in parametrizations._modules:
                parametrizations[name].right_inverse(value)
            else:
                base.__setattr__(self, name, value)

    Parametrized.__name__ = 'Parametrized' + base.__name__
    module.__class__ = Parametrized


def _inject_property(module, tensor_name):
    if hasattr(module, tensor_name):
        raise AssertionError("Module already has an attribute named '{}'".format(tensor_name))

    def get_parametrized(self):
        return _parametrized_value(self, tensor_name)

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def _check_like(what, X, Y, tensor_name, result):
    if X.dtype != Y.dtype:
        raise ValueError('{}, unless the `unsafe` flag is enabled.\nmodule.{}.dtype: {}\n{}.dtype: {}'.format(
            what[0], tensor_name, Y.dtype, result, X.dtype))
    if X.shape != Y.shape:
        raise ValueError('{}, unless the `unsafe` flag is enabled.\nmodule.{}.shape: {}\n{}.shape: {}'.format(
            what[1], tensor_name, Y.shape, result, X.shape))


# A further parametrization on an already parametrized tensor must keep its dtype and shape,
# and so must its right_inverse.
def _check_chained(module, tensor_name, parametrization):
    Y = getattr(module, tensor_name)
    X = parametrization(Y)
    if not isinstance(X, torch.Tensor):
        raise ValueError('A parametrization must return a tensor. Got {}.'.format(type(X).__name__))
    _check_like(('Registering a parametrization may not change the dtype of the tensor',
                 'Registering a parametrization may not change the shape of the tensor'),
                X, Y, tensor_name, 'parametrization(module.{})'.format(tensor_name))
    if hasattr(parametrization, 'right_inverse'):
        try:
            Z = parametrization.right_inverse(X)
        except NotImplementedError:
            return
        if not isinstance(Z, torch.Tensor):
            raise ValueError('parametrization.right_inverse must return a tensor. Got: {}'.format(type(Z).__name__))
        if Z.dtype != Y.dtype:
            raise ValueError('The tensor returned by parametrization.right_inverse must have the same dtype as '
                             'module.{}, unless the `unsafe` flag is enabled.\nmodule.{}.dtype: {}\nreturned dtype: '
                             '{}'.format(tensor_name, tensor_name, Y.dtype, Z.dtype))
        if Z.shape != Y.shape:
            raise ValueError('The tensor returned by parametrization.right_inverse must have the same shape as '
                             'module.{}, unless the `unsafe` flag is enabled.\nmodule.{}.shape: {}\nreturned shape: '
                             '{}'.format(tensor_name, tensor_name, Y.shape, Z.shape))


def register_parametrization(module, tensor_name, parametrization, unsafe=False):
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_chained(module, tensor_name, parametrization)
        plist = module.parametrizations[tensor_name]
        plist.append(parametrization)
        plist.unsafe = plist.unsafe or unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        plist = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = nn.ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = plist
    else:
        raise ValueError("Module '{}' does not have a parameter, a buffer, or a parametrized element with name "
                         "'{}'".format(module, tensor_name))
    return module


def is_parametrized(module, tensor_name=None):
    parametrizations = module.__dict__.get('parametrizations')
    if parametrizations is None or not isinstance(parametrizations, nn.ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    if not is_parametrized(module, tensor_name):
        raise ValueError('Module {} does not have a parametrization on {}'.format(module, tensor_name))
    plist = module.parametrizations[tensor_name]
    if plist.is_tensor:
        original = plist.original
        if leave_parametrized:
            with torch.no_grad():
                t = getattr(module, tensor_name)
                _maybe_set(original, t)
    else:
        if not leave_parametrized:
            raise ValueError('Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized '
                             'in terms of a sequence of tensors.')
        t = getattr(module, tensor_name)
        original = nn.Parameter(t.detach()) if t.requires_grad else t
    delattr(module.__class__, tensor_name)
    delattr(module.parametrizations, tensor_name)
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, 'parametrizations')
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)
