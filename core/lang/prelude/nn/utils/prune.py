# torch.nn.utils.prune: masks that zero out parts of a module's tensor.
# Pruning `name` moves the parameter to `name_orig`, stores the mask as the buffer `name_mask`
# and makes `name` a plain attribute, mask * orig, recomputed before every forward by the
# pruning method itself, registered as a forward pre-hook. Pruning the same tensor again
# chains the methods in a PruningContainer whose new method sees only the units still kept.

import torch
from abc import ABC, abstractmethod


def _is_int(x):
    return isinstance(x, int)


def _check_amount(amount):
    if not isinstance(amount, int) and not isinstance(amount, float):
        raise TypeError('Invalid type for amount: {}. Must be int or float.'.format(amount))
    if (_is_int(amount) and amount < 0) or (not _is_int(amount) and (amount > 1.0 or amount < 0.0)):
        raise ValueError('amount={} should either be a float in the range [0, 1] or a non-negative integer'
                         .format(amount))


def _check_amount_fits(amount, size):
    if _is_int(amount) and amount > size:
        raise ValueError('amount={} should be smaller than the number of parameters to prune={}'
                         .format(amount, size))


# A float amount is a fraction of the units, rounded half to even as Python's round().
def _units_to_prune(amount, size):
    _check_amount_fits(amount, size)
    return amount if _is_int(amount) else round(amount * size)


def _check_structured(t):
    shape = t.shape
    if len(shape) <= 1:
        raise ValueError('Structured pruning can only be applied to multidimensional tensors. Found tensor of '
                         'shape {} with {} dims'.format(shape, len(shape)))


def _check_dim(t, dim):
    if dim >= t.dim():
        raise IndexError('Invalid index {} for tensor of size {}'.format(dim, t.shape))


# The pruning hook of `name` on the module, with its key in _forward_pre_hooks.
def _pruning_hooks(module, name):
    hooks = getattr(module, '_forward_pre_hooks', {})
    return [(k, h) for k, h in hooks.items() if isinstance(h, BasePruningMethod) and h._tensor_name == name]


# Ones along `dim` at the channels `index` picks (a bool mask or indices), zeros elsewhere.
def _channel_mask(t, dim, index):
    mask = torch.zeros_like(t)
    slc = [slice(None)] * t.dim()
    slc[dim] = index
    mask[tuple(slc)] = 1
    return mask


class BasePruningMethod(ABC):
    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        pass

    def apply_mask(self, module):
        if getattr(self, '_tensor_name', None) is None:
            raise AssertionError('Module {} has to be pruned'.format(module))
        mask = getattr(module, self._tensor_name + '_mask')
        orig = getattr(module, self._tensor_name + '_orig')
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        return _apply(cls, module, name, args, kwargs, importance_scores)

    def prune(self, t, default_mask=None, importance_scores=None):
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError('importance_scores should have the same shape as tensor t, got {} vs {}'
                                 .format(importance_scores.shape, t.shape))
        if default_mask is None:
            default_mask = torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    # Makes the pruning permanent: `name` is a Parameter again, holding the masked values.
    def remove(self, module):
        if getattr(self, '_tensor_name', None) is None:
            raise AssertionError('Module {} has to be pruned before pruning can be removed'.format(module))
        name = self._tensor_name
        weight = self.apply_mask(module)
        if hasattr(module, name):
            delattr(module, name)
        orig = module._parameters[name + '_orig']
        orig.data = weight.data
        delattr(module, name + '_orig')
        delattr(module, name + '_mask')
        setattr(module, name, orig)


# BasePruningMethod.apply for cls (the subclasses' apply call it directly, as super() in a
# classmethod does not pass cls on in Kiln).
def _apply(cls, module, name, args, kwargs, importance_scores):
    method = _compose(cls, module, name, args, kwargs)
    orig = getattr(module, name)
    if importance_scores is None:
        importance_scores = orig
    elif importance_scores.shape != orig.shape:
        raise AssertionError('importance_scores should have the same shape as parameter {} of {}, got {} vs {}'
                             .format(name, module, importance_scores.shape, orig.shape))
    first = not isinstance(method, PruningContainer)
    if first:
        module.register_parameter(name + '_orig', orig)
        delattr(module, name)
        default_mask = torch.ones_like(orig)
    else:
        default_mask = getattr(module, name + '_mask').detach().clone()
    try:
        mask = method.compute_mask(importance_scores, default_mask=default_mask)
        module.register_buffer(name + '_mask', mask)
        setattr(module, name, method.apply_mask(module))
        module.register_forward_pre_hook(method)
    except Exception as e:
        # Undo the reparametrization so that a failed prune leaves the module as it was.
        if first:
            orig = getattr(module, name + '_orig')
            delattr(module, name + '_orig')
            module.register_parameter(name, orig)
        raise e
    return method


# The method to hook for a new prune of `name`: a fresh cls(*args, **kwargs), or, when the
# tensor is pruned already, the old hook's container extended by it (the old hook is unhooked).
def _compose(cls, module, name, args, kwargs):
    found = _pruning_hooks(module, name)
    if len(found) > 1:
        raise AssertionError('Avoid adding multiple pruning hooks to the same tensor {} of module {}. Use a '
                             'PruningContainer.'.format(name, module))
    for k, _ in found:
        del module._forward_pre_hooks[k]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if len(found) == 0:
        return method
    old = found[0][1]
    if not isinstance(old, PruningContainer):
        old = PruningContainer(old)
    old.add_pruning_method(method)
    return old


class PruningContainer(BasePruningMethod):
    def __init__(self, *args):
        self._pruning_methods = ()
        if len(args) == 1 and isinstance(args[0], BasePruningMethod):
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
            return
        items = args[0] if len(args) == 1 else args
        for method in items:
            self.add_pruning_method(method)

    def add_pruning_method(self, method):
        if method is not None and not isinstance(method, BasePruningMethod):
            raise TypeError('{} is not a BasePruningMethod subclass'.format(type(method)))
        if method is not None and getattr(self, '_tensor_name', None) != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named '{}' to PruningContainer "
                             "{}. Found '{}'".format(getattr(self, '_tensor_name', None), self, method._tensor_name))
        self._pruning_methods = self._pruning_methods + (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    # The newest method prunes only what the mask so far keeps: unstructured methods see the
    # kept entries as a flat tensor, structured ones the kept channels, global ones everything.
    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        kind = method.PRUNING_TYPE
        if kind == 'unstructured':
            slc = default_mask == 1
        elif kind == 'structured':
            slc = _kept_channels(method, t, default_mask)
        elif kind == 'global':
            slc = tuple([slice(None)] * t.dim())
        else:
            raise ValueError('Unrecognized PRUNING_TYPE {}'.format(kind))
        partial = method.compute_mask(t[slc], default_mask=default_mask[slc])
        new_mask[slc] = partial.to(dtype=new_mask.dtype)
        return new_mask


# The index selecting the channels along method.dim that the mask has not zeroed entirely.
def _kept_channels(method, t, mask):
    if not hasattr(method, 'dim'):
        raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the attribute `dim` '
                             'defined.')
    n = t.dim()
    dim = method.dim if method.dim >= 0 else n + method.dim
    if dim < 0:
        raise IndexError('Index is out of bounds for tensor with dimensions {}'.format(n))
    keep = mask.sum(dim=[d for d in range(n) if d != dim]) != 0
    slc = [slice(None)] * n
    slc[dim] = keep
    return tuple(slc)


class Identity(BasePruningMethod):
    PRUNING_TYPE = 'unstructured'

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return _apply(cls, module, name, (), {}, None)


# Unstructured pruning by amount: zeroes the k entries _pick chooses from the flattened t.
class _ByAmount(BasePruningMethod):
    PRUNING_TYPE = 'unstructured'

    def __init__(self, amount):
        _check_amount(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        k = _units_to_prune(self.amount, t.nelement())
        mask = default_mask.clone()
        if k != 0:
            mask.view(-1)[self._pick(t.reshape(-1), k)] = 0
        return mask


class RandomUnstructured(_ByAmount):
    # The k entries with the largest uniform draws (one draw per entry, as PyTorch).
    def _pick(self, flat, k):
        return torch.topk(torch.rand_like(flat), k=k).indices

    @classmethod
    def apply(cls, module, name, amount):
        return _apply(cls, module, name, (), {'amount': amount}, None)


class L1Unstructured(_ByAmount):
    # The k smallest magnitudes; topk with largest=False breaks ties as PyTorch does.
    def _pick(self, flat, k):
        return torch.topk(torch.abs(flat), k=k, largest=False).indices

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return _apply(cls, module, name, (), {'amount': amount}, importance_scores)


# Structured pruning by amount: zeroes whole channels along dim, keeping those _keep picks.
class _ByChannel(BasePruningMethod):
    PRUNING_TYPE = 'structured'

    def compute_mask(self, t, default_mask):
        _check_structured(t)
        _check_dim(t, self.dim)
        size = t.shape[self.dim]
        k = _units_to_prune(self.amount, size)
        if k == 0:
            return default_mask
        mask = _channel_mask(t, self.dim, self._keep(t, size, k))
        mask *= default_mask.to(dtype=mask.dtype)
        return mask


class RandomStructured(_ByChannel):
    def __init__(self, amount, dim=-1):
        _check_amount(amount)
        self.amount = amount
        self.dim = dim

    # The channels whose uniform draw exceeds the k-th smallest draw.
    def _keep(self, t, size, k):
        prob = torch.rand(size)
        return prob > torch.kthvalue(prob, k=k).values

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return _apply(cls, module, name, (), {'amount': amount, 'dim': dim}, None)


class LnStructured(_ByChannel):
    def __init__(self, amount, n, dim=-1):
        _check_amount(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    # The size - k channels of largest L-n norm over all other dims.
    def _keep(self, t, size, k):
        dims = list(range(t.dim()))
        dims.remove(dims[self.dim])
        norm = torch.norm(t, p=self.n, dim=dims)
        return torch.topk(norm, k=size - k, largest=True).indices

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return _apply(cls, module, name, (), {'amount': amount, 'n': n, 'dim': dim}, importance_scores)


class CustomFromMask(BasePruningMethod):
    PRUNING_TYPE = 'global'

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError('default_mask shape {} must match self.mask shape {}'
                                 .format(default_mask.shape, self.mask.shape))
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return _apply(cls, module, name, (), {'mask': mask}, None)


def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


# Prunes the (module, name) tensors as one flat vector, so that e.g. the smallest 20% of all
# their entries go, then hooks each its slice of the mask as a CustomFromMask.
def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    try:
        parameters = list(parameters)
    except TypeError:
        raise TypeError('global_unstructured(): parameters is not an Iterable')
    if importance_scores is None:
        importance_scores = {}
    if not isinstance(importance_scores, dict):
        raise TypeError('global_unstructured(): importance_scores must be of type dict')
    flat = torch.nn.utils.parameters_to_vector
    scores = flat([importance_scores.get((m, n), getattr(m, n)) for m, n in parameters])
    default_mask = flat([getattr(m, n + '_mask', torch.ones_like(getattr(m, n))) for m, n in parameters])
    container = PruningContainer()
    container._tensor_name = 'temp'
    method = pruning_method(**kwargs)
    method._tensor_name = 'temp'
    if method.PRUNING_TYPE != 'unstructured':
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method {} of '
                        'type {}'.format(pruning_method, method.PRUNING_TYPE))
    container.add_pruning_method(method)
    final_mask = container.compute_mask(scores, default_mask)
    start = 0
    for m, n in parameters:
        param = getattr(m, n)
        count = param.numel()
        custom_from_mask(m, n, mask=final_mask[start:start + count].view_as(param))
        start += count


def remove(module, name):
    for k, hook in _pruning_hooks(module, name):
        hook.remove(module)
        del module._forward_pre_hooks[k]
        return module
    raise ValueError("Parameter '{}' of module {} has to be pruned before pruning can be removed"
                     .format(name, module))


def is_pruned(module):
    for _, sub in module.named_modules():
        for hook in getattr(sub, '_forward_pre_hooks', {}).values():
            if isinstance(hook, BasePruningMethod):
                return True
    return False
