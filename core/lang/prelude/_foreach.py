# torch._foreach_*: PyTorch's multi-tensor ops, which foreach optimizers,
# EMA helpers and gradient utilities call on lists of tensors. PyTorch fuses
# them into few kernels; here each applies the single-tensor op to every
# tensor in turn (the same values, the same autograd nodes per tensor).
# Out-of-place forms return a tuple of new tensors, in-place forms (trailing
# _) the list they were given. The second operand is a scalar, a list (of
# tensors or of scalars, one per tensor) or, for add/sub/mul/div, one tensor
# for every tensor; add and sub take alpha= with a list or a tensor.
import torch


def _check_lists(tensors, *others):
    if len(tensors) == 0:
        raise RuntimeError('Tensor list must have at least one tensor.')
    for other in others:
        if len(other) != len(tensors):
            if len(other) and not isinstance(other[0], torch.Tensor):
                raise RuntimeError('Tensor list must have same number of elements as scalar list.')
            raise RuntimeError('Tensor lists must have the same number of tensors, got ' + str(len(tensors)) +
                               ' and ' + str(len(other)))


# The second operand for tensor i: its list entry, or the one scalar or tensor for all.
def _operands(tensors, other):
    if isinstance(other, (list, tuple)):
        _check_lists(tensors, other)
        return list(other)
    _check_lists(tensors)
    return [other] * len(tensors)


def _binary(apply, apply_):
    def out_of_place(tensors, other, **kwargs):
        return tuple([apply(t, o, **kwargs) for t, o in zip(tensors, _operands(tensors, other))])

    def in_place(tensors, other, **kwargs):
        for t, o in zip(tensors, _operands(tensors, other)):
            apply_(t, o, **kwargs)
        return tensors
    return out_of_place, in_place


def _maximum(t, o):
    return torch.maximum(t, o) if isinstance(o, torch.Tensor) else torch.clamp(t, min=o)


def _minimum(t, o):
    return torch.minimum(t, o) if isinstance(o, torch.Tensor) else torch.clamp(t, max=o)


def _maximum_(t, o):
    return t.copy_(torch.maximum(t, o)) if isinstance(o, torch.Tensor) else t.clamp_(min=o)


def _minimum_(t, o):
    return t.copy_(torch.minimum(t, o)) if isinstance(o, torch.Tensor) else t.clamp_(max=o)


# name: (the op, its in-place form); in place, the result keeps the tensor's dtype or fails as PyTorch's.
_BINARY = {
    'add': (lambda t, o, alpha=1: torch.add(t, o, alpha=alpha), lambda t, o, alpha=1: t.add_(o, alpha=alpha)),
    'sub': (lambda t, o, alpha=1: torch.sub(t, o, alpha=alpha), lambda t, o, alpha=1: t.sub_(o, alpha=alpha)),
    'mul': (torch.mul, lambda t, o: t.mul_(o)),
    'div': (torch.div, lambda t, o: t.div_(o)),
    'maximum': (_maximum, _maximum_),
    'minimum': (_minimum, _minimum_),
    'clamp_min': (_maximum, _maximum_),
    'clamp_max': (_minimum, _minimum_),
}

_UNARY = ('abs', 'acos', 'asin', 'atan', 'ceil', 'cos', 'cosh', 'erf', 'erfc', 'exp', 'expm1', 'floor', 'frac',
          'lgamma', 'log', 'log10', 'log1p', 'log2', 'neg', 'reciprocal', 'round', 'rsqrt', 'sigmoid', 'sign',
          'sin', 'sinh', 'sqrt', 'tan', 'tanh', 'trunc')


def _unary(name):
    def out_of_place(tensors):
        _check_lists(tensors)
        return tuple([getattr(torch, name)(t) for t in tensors])

    def in_place(tensors):
        _check_lists(tensors)
        for t in tensors:
            getattr(t, name + '_')()
        return tensors
    return out_of_place, in_place


# pow's base may be one scalar for a list of exponents: _foreach_pow(2.0, tensors).
def _foreach_pow(self, exponent):
    if not isinstance(self, (list, tuple)):
        _check_lists(exponent)
        return tuple([torch.pow(self, e) for e in exponent])
    return tuple([torch.pow(t, e) for t, e in zip(self, _operands(self, exponent))])


def _foreach_pow_(self, exponent):
    for t, e in zip(self, _operands(self, exponent)):
        t.pow_(e)
    return self


# addcmul/addcdiv's value: one scalar, a list of them, or a 1-D tensor of them.
def _values(tensors, value):
    if isinstance(value, torch.Tensor):
        if value.dim() != 1 or value.numel() != len(tensors):
            raise RuntimeError('Expected length of scalars to match input of length ' + str(len(tensors)) +
                               ' but got ' + str(value.numel()) + ' instead.')
        return value.tolist()
    return _operands(tensors, value)


def _ternary(name):
    def out_of_place(self, tensor1, tensor2, value=1):
        _check_lists(self, tensor1, tensor2)
        return tuple([getattr(torch, name)(t, a, b, value=v)
                      for t, a, b, v in zip(self, tensor1, tensor2, _values(self, value))])

    def in_place(self, tensor1, tensor2, value=1):
        _check_lists(self, tensor1, tensor2)
        for t, a, b, v in zip(self, tensor1, tensor2, _values(self, value)):
            getattr(t, name + '_')(a, b, value=v)
        return self
    return out_of_place, in_place


def _foreach_lerp(self, tensors1, weight):
    _check_lists(self, tensors1)
    return tuple([torch.lerp(t, e, w) for t, e, w in zip(self, tensors1, _operands(self, weight))])


def _foreach_lerp_(self, tensors1, weight):
    _check_lists(self, tensors1)
    for t, e, w in zip(self, tensors1, _operands(self, weight)):
        t.lerp_(e, w)
    return self


def _foreach_copy_(self, src, non_blocking=False):
    _check_lists(self, src)
    for t, s in zip(self, src):
        t.copy_(s)
    return self


def _foreach_zero_(self):
    _check_lists(self)
    for t in self:
        t.zero_()
    return self


def _foreach_norm(self, ord=2, dtype=None):
    _check_lists(self)
    return tuple([torch.linalg.vector_norm(t, ord, dtype=dtype) for t in self])


def _foreach_max(self):
    _check_lists(self)
    return tuple([t.max() for t in self])


for _name, _fns in _BINARY.items():
    _out, _in = _binary(_fns[0], _fns[1])
    setattr(torch, '_foreach_' + _name, _out)
    setattr(torch, '_foreach_' + _name + '_', _in)
for _name in _UNARY:
    _out, _in = _unary(_name)
    setattr(torch, '_foreach_' + _name, _out)
    setattr(torch, '_foreach_' + _name + '_', _in)
for _name in ('addcmul', 'addcdiv'):
    _out, _in = _ternary(_name)
    setattr(torch, '_foreach_' + _name, _out)
    setattr(torch, '_foreach_' + _name + '_', _in)
torch._foreach_pow = _foreach_pow
torch._foreach_pow_ = _foreach_pow_
torch._foreach_lerp = _foreach_lerp
torch._foreach_lerp_ = _foreach_lerp_
torch._foreach_copy_ = _foreach_copy_
torch._foreach_zero_ = _foreach_zero_
torch._foreach_norm = _foreach_norm
torch._foreach_max = _foreach_max
