# torch.func (and torch.vmap): PyTorch's function transforms, written over
# Kiln's tape autograd instead of functorch's levels.
#
# - vmap runs the function once per batch element and stacks the results.
#   That equals PyTorch's batching for functions without side effects; the
#   randomness modes are honoured through the generator state (see _vmap_call).
# - grad, vjp, jacrev, jacfwd and hessian run the function on fresh leaves and
#   call torch.autograd.grad. A graph is kept (create_graph) only when another
#   transform encloses this one or the function reached tensors that require
#   grad outside it, so the results are plain tensors exactly when PyTorch's are.
# - jvp uses the double-vjp trick (u -> J^T u is linear, so J v is its vjp);
#   jacfwd computes by reverse mode: the same Jacobian, to float rounding.
import torch


# ---------------------------------------------------------------- pytrees
# A spec is ('leaf',), ('tuple', children), ('list', children) or
# ('dict', keys, children). None is a leaf, as in torch's pytree.

def _flatten(tree):
    leaves = []
    spec = _flatten_into(tree, leaves)
    return leaves, spec


def _flatten_into(tree, leaves):
    if isinstance(tree, tuple):
        return ('tuple', [_flatten_into(x, leaves) for x in tree])
    if isinstance(tree, list):
        return ('list', [_flatten_into(x, leaves) for x in tree])
    if isinstance(tree, dict):
        keys = list(tree.keys())
        return ('dict', keys, [_flatten_into(tree[k], leaves) for k in keys])
    leaves.append(tree)
    return ('leaf',)


def _unflatten(leaves, spec):
    it = iter(leaves)
    return _build(it, spec)


def _build(it, spec):
    kind = spec[0]
    if kind == 'leaf':
        return next(it)
    if kind == 'dict':
        return {k: _build(it, s) for k, s in zip(spec[1], spec[2])}
    items = [_build(it, s) for s in spec[1]]
    return tuple(items) if kind == 'tuple' else items


def _num_leaves(spec):
    kind = spec[0]
    if kind == 'leaf':
        return 1
    children = spec[2] if kind == 'dict' else spec[1]
    return sum(_num_leaves(s) for s in children)


# The prefix tree `prefix` (in_dims / out_dims) broadcast over the leaves of
# `spec`: a flat list, or None when the structures do not match.
def _broadcast(prefix, spec):
    if not isinstance(prefix, (tuple, list, dict)):
        return [prefix] * _num_leaves(spec)
    kind = spec[0]
    if isinstance(prefix, tuple) and kind == 'tuple' or isinstance(prefix, list) and kind == 'list':
        subs = list(prefix)
        children = spec[1]
    elif isinstance(prefix, dict) and kind == 'dict':
        if sorted(prefix.keys()) != sorted(spec[1]):
            return None
        subs = [prefix[k] for k in spec[1]]
        children = spec[2]
    else:
        return None
    if len(subs) != len(children):
        return None
    out = []
    for p, s in zip(subs, children):
        part = _broadcast(p, s)
        if part is None:
            return None
        out.extend(part)
    return out


def _spec_str(spec):
    kind = spec[0]
    if kind == 'leaf':
        return '*'
    if kind == 'dict':
        return '{' + ', '.join(repr(k) + ': ' + _spec_str(s) for k, s in zip(spec[1], spec[2])) + '}'
    inner = ', '.join(_spec_str(s) for s in spec[1])
    if kind == 'list':
        return '[' + inner + ']'
    return '(' + inner + (',)' if len(spec[1]) == 1 else ')')


def _get_name(func):
    name = getattr(func, '__name__', None)
    return name if name is not None else repr(func)


# ---------------------------------------------------------------- vmap

def _check_randomness(randomness):
    if randomness not in ('error', 'different', 'same'):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or 'same'. "
                           "Got {}".format(randomness))


def vmap(func, in_dims=0, out_dims=0, randomness='error', *, chunk_size=None):
    _check_randomness(randomness)
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError('vmap: chunk_size should be None or greater than 0. (got {})'.format(chunk_size))

    def vmapped(*args, **kwargs):
        return _vmap_call(func, in_dims, out_dims, randomness, args, kwargs)

    vmapped.__name__ = _get_name(func)
    return vmapped


def _vmap_inputs(func, in_dims, args):
    name = _get_name(func)
    if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
        raise ValueError('vmap({}, in_dims={}, ...)(<inputs>): expected `in_dims` to be int or a (potentially '
                         'nested) tuple matching the structure of inputs, got: {}.'.format(name, in_dims, type(in_dims)))
    if len(args) == 0:
        raise ValueError('vmap({})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying to '
                         'vmap over a function with no inputs. The latter is unsupported.'.format(name))
    flat, spec = _flatten(args)
    dims = _broadcast(in_dims, spec)
    if dims is None:
        _, dims_spec = _flatten(in_dims)
        raise ValueError('vmap({}, in_dims={}, ...)(<inputs>): in_dims is not compatible with the structure of '
                         '`inputs`. in_dims has structure {} but inputs has structure {}.'.format(
                             name, in_dims, _spec_str(dims_spec), _spec_str(spec)))
    head = 'vmap({}, in_dims={}, ...)(<inputs>): '.format(name, in_dims)
    for i in range(len(flat)):
        arg, d = flat[i], dims[i]
        if d is None:
            continue
        if not isinstance(d, int) or isinstance(d, bool):
            raise ValueError(head + 'Got in_dim={} for an input but in_dim must be either an integer dimension '
                             'or None.'.format(d))
        if not isinstance(arg, torch.Tensor):
            raise ValueError(head + 'Got in_dim={} for an input but the input is of type {}. We cannot vmap over '
                             'non-Tensor arguments, please use None as the respective in_dim'.format(d, type(arg)))
        n = arg.dim()
        if d < -n or d >= n:
            raise ValueError(head + 'Got in_dim={} for some input, but that input is a Tensor of dimensionality {} '
                             'so expected in_dim to satisfy -{} <= in_dim < {}.'.format(d, n, n, n))
        dims[i] = d % n
    sizes = [flat[i].shape[dims[i]] for i in range(len(flat)) if dims[i] is not None]
    if len(sizes) == 0:
        raise ValueError('vmap: Expected at least one Tensor to vmap over')
    for s in sizes:
        if s != sizes[0]:
            raise ValueError('vmap: Expected all tensors to have the same size in the mapped dimension, got sizes '
                             '{} for the mapped dimension'.format(sizes))
    return flat, spec, dims, sizes[0]


def _vmap_call(func, in_dims, out_dims, randomness, args, kwargs):
    flat, spec, dims, size = _vmap_inputs(func, in_dims, args)
    if size == 0:
        raise NotImplementedError('kiln: vmap over a batch of size 0 is not supported')
    # 'same' replays one generator state for every element (PyTorch draws one
    # unbatched sample); 'error' checks whether the first element drew at all.
    state = torch.get_rng_state() if randomness != 'different' else None
    results = []
    for b in range(size):
        if randomness == 'same' and b > 0:
            end_state = torch.get_rng_state()
            torch.set_rng_state(state)
        elem = [x if d is None else x.select(d, b) for x, d in zip(flat, dims)]
        results.append(func(*_unflatten(elem, spec), **kwargs))
        if randomness == 'error' and b == 0 and not torch.equal(state, torch.get_rng_state()):
            torch.set_rng_state(state)
            raise RuntimeError("vmap: called random operation while in randomness error mode. Please either use "
                               "the 'same' or 'different' randomness flags on vmap or perform the randomness "
                               "operation out of vmap")
    if randomness == 'same' and size > 1:
        torch.set_rng_state(end_state)
    return _vmap_outputs(func, out_dims, results)


def _vmap_outputs(func, out_dims, results):
    name = _get_name(func)
    flat0, spec = _flatten(results[0])
    _check_out_dims(func, out_dims)
    if spec[0] == 'leaf' and isinstance(results[0], torch.Tensor):
        if isinstance(out_dims, tuple) and len(out_dims) == 1:
            dims = list(out_dims)
        elif isinstance(out_dims, int) or out_dims is None:
            dims = [out_dims]
        else:
            dims = None
    else:
        dims = _broadcast(out_dims, spec)
    if dims is None:
        _, dims_spec = _flatten(out_dims)
        raise ValueError('vmap({}, ..., out_dims={})(<inputs>): out_dims is not compatible with the structure of '
                         '`outputs`. out_dims has structure {} but outputs has structure {}.'.format(
                             name, out_dims, _spec_str(dims_spec), _spec_str(spec)))
    columns = [[] for _ in flat0]
    for r in results:
        leaves, _ = _flatten(r)
        for j in range(len(leaves)):
            columns[j].append(leaves[j])
    out = []
    for col, d in zip(columns, dims):
        out.append(_stack_column(name, col, d))
    return _unflatten(out, spec)


def _check_out_dims(func, out_dims):
    if isinstance(out_dims, int):
        return
    leaves, _ = _flatten(out_dims)
    for d in leaves:
        if d is not None and not isinstance(d, int):
            raise ValueError('vmap({}, ..., out_dims={}): `out_dims` must be an int, None or a python collection '
                             'of ints representing where in the outputs the vmapped dimension should '
                             'appear.'.format(_get_name(func), out_dims))


# One output leaf over the batch. out_dim=None asks for an unbatched output:
# per element results that differ mean the output depended on the batch.
def _stack_column(name, col, d):
    first = col[0]
    if d is None:
        if isinstance(first, torch.Tensor):
            for t in col[1:]:
                if t is not first and not (tuple(t.shape) == tuple(first.shape) and torch.equal(t, first)):
                    raise ValueError('vmap({}, ...): `{}` can not return a BatchedTensor when out_dim is '
                                     'None'.format(name, name))
        return first
    if not isinstance(first, torch.Tensor):
        raise ValueError('vmap({}, ...): `{}` must only return Tensors, got type {}. Did you mean to set '
                         'out_dims= to None for output?'.format(name, name, type(first)))
    return torch.stack(col, d)


# ---------------------------------------------------------------- reverse mode

_depth = [0]  # how many grad-like transforms are running (they need create_graph)


def _check_tensor_leaves(flat):
    for t in flat:
        if not isinstance(t, torch.Tensor):
            raise ValueError('Thing passed to transform API must be Tensor, got {}'.format(type(t)))


# A graph must outlive this transform when an enclosing transform will
# differentiate the results or when the inputs carry history of their own.
def _keeps_graph(flat):
    if _depth[0] > 0:
        return True
    for t in flat:
        if t.requires_grad:
            return True
    return False


# Fresh differentiable stand-ins: a view keeps the input's own history.
def _differentiable(flat, keep):
    return [t.view_as(t) if keep and t.requires_grad else t.detach().requires_grad_(True) for t in flat]


def _release(tree, keep):
    if keep:
        return tree
    leaves, spec = _flatten(tree)
    return _unflatten([x.detach() if isinstance(x, torch.Tensor) else x for x in leaves], spec)


def _autograd(outputs, inputs, seeds, keep):
    pairs = [(o, s) for o, s in zip(outputs, seeds) if o.requires_grad]
    if len(pairs) == 0:
        return [torch.zeros_like(x) for x in inputs]
    gs = torch.autograd.grad([p[0] for p in pairs], inputs, [p[1] for p in pairs], retain_graph=True,
                             create_graph=keep, allow_unused=True)
    return [torch.zeros_like(x) if g is None else g for g, x in zip(gs, inputs)]


def _wrap_argnum(argnum, num_args):
    if not isinstance(argnum, int) or isinstance(argnum, bool):
        raise RuntimeError('argnum must be int, got: {}'.format(type(argnum)))
    if argnum >= 0 and argnum < num_args:
        return argnum
    if argnum < 0 and argnum >= -num_args:
        return argnum + num_args
    raise RuntimeError('Got argnum={}, but only {} positional inputs'.format(argnum, num_args))


def _argnums_list(argnums, num_args):
    if isinstance(argnums, int) and not isinstance(argnums, bool):
        return [_wrap_argnum(argnums, num_args)]
    if not isinstance(argnums, tuple):
        raise RuntimeError('argnums must be int or Tuple[int, ...], got: {}'.format(type(argnums)))
    nums = [_wrap_argnum(a, num_args) for a in argnums]
    if len(nums) == 0:
        raise RuntimeError('argnums must be non-empty')
    if len(set(nums)) != len(nums):
        raise RuntimeError('argnums elements must be unique, got {}'.format(argnums))
    return nums


# Runs func with the argnums arguments replaced by differentiable leaves.
# Returns (leaves, leaves' pytree (one tree per argnum, a tuple for a tuple
# argnums), keep, output).
def _run_differentiable(func, argnums, args, kwargs):
    nums = _argnums_list(argnums, len(args))
    picked = args[nums[0]] if isinstance(argnums, int) else tuple(args[i] for i in nums)
    flat, spec = _flatten(picked)
    _check_tensor_leaves(flat)
    keep = _keeps_graph(flat)
    leaves = _differentiable(flat, keep)
    tree = _unflatten(leaves, spec)
    new_args = list(args)
    if isinstance(argnums, int):
        new_args[nums[0]] = tree
    else:
        for i, a in zip(nums, tree):
            new_args[i] = a
    _depth[0] += 1
    try:
        with torch.enable_grad():
            out = func(*new_args, **kwargs)
    finally:
        _depth[0] -= 1
    if not keep:
        flat_out, _ = _flatten(out)
        keep = _reaches_outer_leaf(flat_out, leaves)
    return leaves, spec, keep, out


# Whether the outputs' graph reaches a tensor of the caller's that requires
# grad (a closure over parameters, say): then the results keep their history,
# as PyTorch's do. Nodes are told apart by their address (_addr), since each
# access to next_functions gives new node objects.
def _reaches_outer_leaf(flat_out, leaves):
    stack = []
    for o in flat_out:
        if not isinstance(o, torch.Tensor) or not o.requires_grad:
            continue
        if o.grad_fn is None:
            if not any(o is x for x in leaves):
                return True
        else:
            stack.append(o.grad_fn)
    seen = set()
    while len(stack) > 0:
        node = stack.pop()
        if node is None or node._addr in seen:
            continue
        seen.add(node._addr)
        var = getattr(node, 'variable', None)
        if var is not None and not any(var is x for x in leaves):
            return True
        for nxt, _ in node.next_functions:
            stack.append(nxt)
    return False


def _split_aux(out, has_aux, api):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError('{}: output of function f should be a tuple: (output, aux) if has_aux is '
                           'True'.format(api))
    return out[0], out[1]


def grad_and_value(func, argnums=0, has_aux=False):
    def wrapper(*args, **kwargs):
        leaves, spec, keep, out = _run_differentiable(func, argnums, args, kwargs)
        out, aux = _split_aux(out, has_aux, 'grad_and_value(f)(*args)')
        if not isinstance(out, torch.Tensor):
            raise RuntimeError('grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got '
                               '{}'.format(type(out)))
        if out.dim() != 0:
            raise RuntimeError('grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor '
                               'with {} dims. Maybe you wanted to use the vjp or jacrev APIs '
                               'instead?'.format(out.dim()))
        with torch.enable_grad():
            gs = _autograd([out], leaves, [torch.ones_like(out)], keep)
        g = _release(_unflatten(gs, spec), keep)
        value = _release(out, keep)
        if has_aux:
            return g, (value, _release(aux, keep))
        return g, value

    wrapper.__name__ = _get_name(func)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    inner = grad_and_value(func, argnums, has_aux)

    def wrapper(*args, **kwargs):
        g, value = inner(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    wrapper.__name__ = _get_name(func)
    return wrapper


def _check_outputs(flat_out, out, api):
    if len(flat_out) == 0:
        raise RuntimeError('{}: Expected f to be a function that has non-empty output (got output = '
                           '{})'.format(api, out))
    for o in flat_out:
        if not isinstance(o, torch.Tensor):
            raise RuntimeError('{}: expected f(*primals) to return only tensors, got unsupported type '
                               '{}'.format(api, type(o)))
        if not o.is_floating_point():
            raise RuntimeError('vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got '
                               'Tensor with dtype {}'.format(o.dtype))


def vjp(func, *primals, has_aux=False):
    argnums = tuple(range(len(primals)))
    leaves, spec, keep, out = _run_differentiable(func, argnums, primals, {})
    out, aux = _split_aux(out, has_aux, 'vjp(f, *primals)')
    flat_out, out_spec = _flatten(out)
    _check_outputs(flat_out, out, 'vjp(f, *primals)')

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        flat_ct, ct_spec = _flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError('Expected pytree structure of cotangents to be the same as pytree structure of '
                               'outputs to the function. cotangents: {}, primal output: {}'.format(
                                   _spec_str(ct_spec), _spec_str(out_spec)))
        for c, o in zip(flat_ct, flat_out):
            if tuple(c.shape) != tuple(o.shape):
                raise RuntimeError('Mismatch in shape: grad_output[0] has a shape of {} and output[0] has a shape '
                                   'of {}.'.format(c.shape, o.shape))
        graph = keep or _depth[0] > 0
        with torch.enable_grad():
            gs = _autograd(flat_out, leaves, flat_ct, graph)
        return _release(_unflatten(gs, spec), graph)

    result = _release(out, keep)
    if has_aux:
        return result, vjp_fn, _release(aux, keep)
    return result, vjp_fn


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    api = 'jvp(f, primals, tangents)'
    if not isinstance(primals, tuple):
        raise RuntimeError(api + ': Expected primals to be a tuple. E.g. it should be valid to call f(*primals).')
    flat_p, p_spec = _flatten(primals)
    flat_t, t_spec = _flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(api + ': Expected primals and tangents to have the same python structure. For example, '
                           'if primals is a tuple of 3 tensors, tangents also must be. Got primals with structure '
                           '{} and tangents with structure {}'.format(_spec_str(p_spec), _spec_str(t_spec)))
    for i in range(len(flat_p)):
        if tuple(flat_t[i].shape) != tuple(flat_p[i].shape):
            raise RuntimeError('Trying to set a forward gradient that has a different size than that of the '
                               'original Tensor, this is not supported. Tensor is of size {} while the given '
                               'forward gradient is of size {}.'.format(flat_p[i].shape, flat_t[i].shape))
    argnums = tuple(range(len(primals)))
    leaves, spec, keep, out = _run_differentiable(func, argnums, primals, {})
    out, aux = _split_aux(out, has_aux, api)
    flat_out, out_spec = _flatten(out)
    _check_outputs(flat_out, out, api)
    with torch.enable_grad():
        try:
            jv = _double_vjp(flat_out, leaves, flat_t, keep)
        except NotImplementedError:
            jv = _jacobian_times(flat_out, leaves, flat_t, keep)
    result = (_release(out, keep), _release(_unflatten(jv, out_spec), keep))
    if has_aux:
        return result[0], result[1], _release(aux, keep)
    return result


def _double_vjp(flat_out, leaves, flat_t, keep):
    us = [torch.zeros_like(o).requires_grad_(True) for o in flat_out]
    gs = _autograd(flat_out, leaves, us, True)
    pairs = [(g, t) for g, t in zip(gs, flat_t) if g.requires_grad]
    if len(pairs) == 0:
        return [torch.zeros_like(o) for o in flat_out]
    return _autograd([p[0] for p in pairs], us, [p[1] for p in pairs], keep)


# J v one output element at a time: for ops whose backward formula has no
# derivative of its own, which the double-vjp trick needs.
def _jacobian_times(flat_out, leaves, flat_t, keep):
    result = []
    for o in flat_out:
        n = o.numel()
        rows = []
        for k in range(n):
            seed = torch.zeros(n, dtype=o.dtype)
            seed[k] = 1.0
            gs = _autograd([o], leaves, [seed.reshape(o.shape)], keep)
            rows.append(sum((g * t).sum() for g, t in zip(gs, flat_t)))
        result.append(torch.stack(rows).reshape(o.shape) if n > 0 else torch.zeros_like(o))
    return result


# The Jacobian of every output leaf with respect to every leaf of the
# differentiated arguments, one backward pass per output element. Each block
# is shaped output shape + input shape; blocks nest as the outputs, then as
# the arguments.
def _jacobian(func, argnums, has_aux, args, kwargs):
    leaves, spec, keep, out = _run_differentiable(func, argnums, args, kwargs)
    out, aux = _split_aux(out, has_aux, 'vjp(f, *primals)')
    flat_out, out_spec = _flatten(out)
    _check_outputs(flat_out, out, 'vjp(f, *primals)')
    blocks = []
    with torch.enable_grad():
        for o in flat_out:
            rows = [[] for _ in leaves]
            n = o.numel()
            for k in range(n):
                seed = torch.zeros(n, dtype=o.dtype)
                seed[k] = 1.0
                gs = _autograd([o], leaves, [seed.reshape(o.shape)], keep)
                for j in range(len(leaves)):
                    rows[j].append(gs[j])
            per_leaf = []
            for j, x in enumerate(leaves):
                shape = tuple(o.shape) + tuple(x.shape)
                if n == 0:
                    jac = torch.zeros(shape, dtype=x.dtype)
                else:
                    jac = torch.stack(rows[j]).reshape(shape)
                per_leaf.append(_release(jac, keep))
            blocks.append(_unflatten(per_leaf, spec))
    jac = _unflatten(blocks, out_spec)
    if has_aux:
        return jac, _release(aux, keep)
    return jac


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError('jacrev: `chunk_size` should be greater than 0.')

    def wrapper(*args, **kwargs):
        return _jacobian(func, argnums, has_aux, args, kwargs)

    wrapper.__name__ = _get_name(func)
    return wrapper


# Forward mode would give the same matrix; reverse mode needs no second
# derivatives of the backward formulas.
def jacfwd(func, argnums=0, has_aux=False, *, randomness='error'):
    _check_randomness(randomness)

    def wrapper(*args, **kwargs):
        return _jacobian(func, argnums, has_aux, args, kwargs)

    wrapper.__name__ = _get_name(func)
    return wrapper


def hessian(func, argnums=0):
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------- modules

def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    if isinstance(parameter_and_buffer_dicts, dict):
        values = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, (tuple, list)):
        for d in parameter_and_buffer_dicts:
            if not isinstance(d, dict):
                raise ValueError('Expected all elements of parameter_and_buffer_dicts to be dictionaries')
        counts = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if len(repeated) > 0:
            raise ValueError('{} appeared in multiple dictionaries; behavior of functional call is '
                             'ambiguous'.format(repeated))
        values = {}
        for d in parameter_and_buffer_dicts:
            values.update(d)
    else:
        raise ValueError('Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got '
                         '{}'.format(type(parameter_and_buffer_dicts)))
    return _stateless_call(module, values, args, kwargs, tie_weights, strict)


# Every parameter and buffer by its dotted name, tied ones under each name.
def _all_named_tensors(module):
    out = {}
    for prefix, m in module.named_modules(remove_duplicate=False):
        for registry in (m._parameters, m._buffers):
            for n, t in registry.items():
                if t is not None:
                    out[prefix + '.' + n if prefix else n] = t
    return out


# A value given for one name of a tied tensor goes to all its names.
def _untie(named, values):
    groups = {}
    for n, t in named.items():
        groups.setdefault(id(t), []).append(n)
    result = dict(values)
    for n in values:
        if n not in named:
            continue
        tied = groups[id(named[n])]
        if len(tied) < 2:
            continue
        given = [values[m] for m in tied if m in values]
        for v in given:
            if v is not given[0]:
                raise ValueError('functional_call got multiple values for keys {}, which are tied. Consider using '
                                 'tie_weights=False'.format(sorted(tied)))
        for m in tied:
            result[m] = values[n]
    return result


_MISSING = object()


# Puts `value` at the dotted `name` and returns what was there.
def _swap(module, name, value):
    parts = name.split('.')
    owner = module
    for p in parts[:-1]:
        owner = getattr(owner, p)
    leaf = parts[-1]
    if leaf in owner._parameters:
        old = owner._parameters[leaf]
        registry = owner._parameters
    elif leaf in owner._buffers:
        old = owner._buffers[leaf]
        registry = owner._buffers
    else:
        old = getattr(owner, leaf, _MISSING)
        registry = None
    if registry is not None:
        if value is _MISSING:
            del registry[leaf]
        else:
            registry[leaf] = value
    if value is _MISSING:
        object.__delattr__(owner, leaf)
    else:
        object.__setattr__(owner, leaf, value)
    return old


def _stateless_call(module, values, args, kwargs, tie_weights, strict):
    named = _all_named_tensors(module)
    if tie_weights:
        values = _untie(named, values)
    if strict:
        missing = sorted([k for k in named if k not in values])
        unexpected = sorted([k for k in values if k not in named])
        msgs = []
        if len(unexpected) > 0:
            msgs.append('Unexpected key(s): {}.'.format(', '.join(repr(k) for k in unexpected)))
        if len(missing) > 0:
            msgs.append('Missing key(s): {}.'.format(', '.join(repr(k) for k in missing)))
        if len(msgs) > 0:
            raise RuntimeError('Error(s) in reparametrizing for {}:\n\t{}'.format(module._get_name(),
                                                                                  '\n\t'.join(msgs)))
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    saved = []
    try:
        for name, value in values.items():
            saved.append((name, _swap(module, name, value)))
        return module(*args, **kwargs)
    finally:
        for name, old in reversed(saved):
            _swap(module, name, old)


def _stack_leaf(tensors, name):
    flags = [t.requires_grad for t in tensors]
    if any(flags) and not all(flags):
        raise RuntimeError('Expected {} from each model to have the same .requires_grad'.format(name))
    result = torch.stack(tensors)
    if all(flags):
        result = result.detach().requires_grad_()
    return result


def stack_module_state(models):
    models = list(models)
    if len(models) == 0:
        raise RuntimeError('stack_module_state: Expected at least one model, got 0.')
    modes = [m.training for m in models]
    if any(modes) and not all(modes):
        raise RuntimeError('stack_module_state: Expected all models to have the same training/eval mode.')
    for m in models:
        if type(m) is not type(models[0]):
            raise RuntimeError('stack_module_state: Expected all models to be of the same class.')
    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: _stack_leaf([p[k] for p in all_params], k) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: _stack_leaf([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


torch.vmap = vmap
