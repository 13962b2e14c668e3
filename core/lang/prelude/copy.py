# copy: shallow and deep copies as CPython's copy module makes them, for what
# Kiln scripts hold: containers, instances of classes (through their
# __dict__, honouring __copy__ and __deepcopy__), and tensors as PyTorch
# copies them (Tensor.__deepcopy__: a clone that keeps requires_grad and
# copies .grad; Parameter.__deepcopy__: a Parameter over a clone, no grad).
# Everything else (numbers, strings, functions, classes, modules, dtypes) is
# atomic and returned as is.


class Error(Exception):
    pass


error = Error


def _is_instance(x):
    return not isinstance(x, type) and hasattr(x, '__dict__') and type(x).__name__ != 'module'


def copy(x):
    cls = type(x)
    if cls is list:
        return list(x)
    if cls is dict:
        return dict(x)
    if cls is set:
        return set(x)
    if hasattr(x, '__copy__'):
        return x.__copy__()
    if _is_instance(x):
        y = object.__new__(cls)
        for k, v in x.__dict__.items():
            object.__setattr__(y, k, v)
        return y
    return x


def _deepcopy_tensor(x, memo):
    import torch
    import torch.nn
    if isinstance(x, torch.nn.Parameter):
        y = torch.nn.Parameter(x.detach().clone(), x.requires_grad)
        memo[id(x)] = y
        return y
    if not x.is_leaf:
        raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                           "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                           "because of a torch.nn.utils.weight_norm usage, see "
                           "https://github.com/pytorch/pytorch/pull/103001")
    y = x.detach().clone()
    if x.requires_grad:
        y.requires_grad_(True)
    memo[id(x)] = y
    if x.grad is not None:
        y.grad = deepcopy(x.grad, memo)
    # The tensor's own attributes (a Parameter's are dropped, as PyTorch's Parameter.__deepcopy__ does).
    for k, v in x.__dict__.items():
        setattr(y, k, deepcopy(v, memo))
    return y


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    key = id(x)
    if key in memo:
        return memo[key]
    cls = type(x)
    if cls is list:
        y = []
        memo[key] = y
        for v in x:
            y.append(deepcopy(v, memo))
        return y
    if cls is tuple:
        y = tuple(deepcopy(v, memo) for v in x)
        memo[key] = y
        return y
    if isinstance(x, tuple) and hasattr(cls, '__getnewargs__'):
        # A namedtuple, rebuilt from its __getnewargs__ as CPython's reduce does.
        y = cls.__new__(cls, *deepcopy(x.__getnewargs__(), memo))
        memo[key] = y
        return y
    if cls is dict:
        y = {}
        memo[key] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
        return y
    if cls is set:
        y = set(deepcopy(v, memo) for v in x)
        memo[key] = y
        return y
    if cls.__name__ in ('Tensor', 'Parameter'):
        return _deepcopy_tensor(x, memo)
    if hasattr(x, '__deepcopy__'):
        y = x.__deepcopy__(memo)
        memo[key] = y
        return y
    if _is_instance(x):
        y = object.__new__(cls)
        memo[key] = y
        for k, v in x.__dict__.items():
            object.__setattr__(y, k, deepcopy(v, memo))
        return y
    return x
