# torch.autograd.functional: Jacobians, Hessians and vector products of a
# function, by reverse mode over torch.autograd.grad (one backward pass per
# output element for jacobian; create_graph for the second-order ones). The
# results are shaped as PyTorch's: a Jacobian block is output shape + input
# shape, nested in tuples when the function takes or returns tuples.
import torch


def _as_tuple(x):
    return (tuple(x), True) if isinstance(x, (tuple, list)) else ((x,), False)


# Fresh leaves that require grad; under create_graph a view keeps the caller's history.
def _prepare(inputs, create_graph):
    out = []
    for t in inputs:
        if not isinstance(t, torch.Tensor):
            raise TypeError('The inputs given to the function must be Tensors, got {}'.format(type(t).__name__))
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(t.detach().requires_grad_(True))
    return tuple(out)


def _finish(t, create_graph):
    return t if create_graph else t.detach()


def _grads(outputs, inputs, grad_outputs, create_graph):
    needed = [o for o in outputs if o.requires_grad]
    if len(needed) == 0:
        return tuple(torch.zeros_like(i) for i in inputs)
    seeds = [g for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    gs = torch.autograd.grad(needed, inputs, seeds, retain_graph=True, create_graph=create_graph,
                             allow_unused=True)
    return tuple(torch.zeros_like(i) if g is None else g for g, i in zip(gs, inputs))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode'):
    if strategy != 'reverse-mode':
        raise NotImplementedError("kiln: torch.autograd.functional.jacobian supports strategy='reverse-mode' only")
    inputs, in_tuple = _as_tuple(inputs)
    with torch.enable_grad():
        inputs = _prepare(inputs, create_graph)
        outputs, out_tuple = _as_tuple(func(*inputs))
        blocks = []
        for out in outputs:
            flat = out.reshape(-1)
            rows = [[] for _ in inputs]
            for k in range(flat.numel()):
                gs = _grads((flat[k],), inputs, (None,), create_graph)
                for j, g in enumerate(gs):
                    rows[j].append(g)
            per_input = []
            for j, inp in enumerate(inputs):
                if len(rows[j]) == 0:
                    jac = torch.zeros(tuple(out.shape) + tuple(inp.shape), dtype=inp.dtype)
                else:
                    jac = torch.stack(rows[j]).reshape(tuple(out.shape) + tuple(inp.shape))
                per_input.append(_finish(jac, create_graph))
            blocks.append(tuple(per_input) if in_tuple else per_input[0])
    return tuple(blocks) if out_tuple else blocks[0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy='reverse-mode'):
    inputs_t, in_tuple = _as_tuple(inputs)

    def gradient(*xs):
        out = func(*xs)
        if not isinstance(out, torch.Tensor) or out.numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to hessian should contain a single element')
        gs = _grads((out.reshape(()),), xs, (None,), True)
        return gs if in_tuple else gs[0]

    return jacobian(gradient, inputs_t if in_tuple else inputs_t[0], create_graph=create_graph)


def _v_tuple(v, like, name):
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError('The vector v can only be None if the user-provided function returns a single '
                               'Tensor with a single element.')
        return (torch.ones_like(like[0]),)
    vs, _ = _as_tuple(v)
    if len(vs) != len(like):
        raise RuntimeError('v is a tuple of invalid length: should be {} but got {}.'.format(len(like), len(vs)))
    for a, b in zip(vs, like):
        if tuple(a.shape) != tuple(b.shape):
            raise RuntimeError('Mismatch in shape: {} has a shape of {} and the corresponding tensor has a shape '
                               'of {}'.format(name, tuple(a.shape), tuple(b.shape)))
    return vs


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    inputs, in_tuple = _as_tuple(inputs)
    with torch.enable_grad():
        inputs = _prepare(inputs, create_graph)
        outputs, out_tuple = _as_tuple(func(*inputs))
        vs = _v_tuple(v, outputs, 'v')
        gs = _grads(outputs, inputs, vs, create_graph)
    outs = tuple(_finish(o, create_graph) for o in outputs)
    gs = tuple(_finish(g, create_graph) for g in gs)
    return (outs if out_tuple else outs[0]), (gs if in_tuple else gs[0])


# Forward products by the double-backward trick: u -> J^T u is linear in u, so J v is its vjp.
def jvp(func, inputs, v=None, create_graph=False, strict=False):
    inputs, in_tuple = _as_tuple(inputs)
    with torch.enable_grad():
        inputs = _prepare(inputs, create_graph)
        vs = _v_tuple(v, inputs, 'v')
        outputs, out_tuple = _as_tuple(func(*inputs))
        us = tuple(torch.zeros_like(o).requires_grad_(True) for o in outputs)
        gs = _grads(outputs, inputs, us, True)
        jv = _grads(gs, us, vs, create_graph)
    outs = tuple(_finish(o, create_graph) for o in outputs)
    jv = tuple(_finish(g, create_graph) for g in jv)
    return (outs if out_tuple else outs[0]), (jv if out_tuple else jv[0])


def _second_order(func, inputs, v, create_graph, name):
    inputs, in_tuple = _as_tuple(inputs)
    with torch.enable_grad():
        inputs = _prepare(inputs, create_graph)
        out = func(*inputs)
        if not isinstance(out, torch.Tensor) or out.numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to {} should contain a single '
                               'element'.format(name))
        vs = _v_tuple(v, inputs, 'v')
        gs = _grads((out.reshape(()),), inputs, (None,), True)
        hv = _grads(gs, inputs, vs, create_graph)
    hv = tuple(_finish(g, create_graph) for g in hv)
    return _finish(out, create_graph), (hv if in_tuple else hv[0])


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    return _second_order(func, inputs, v, create_graph, 'vhp')


# The Hessian is symmetric for the twice-differentiable functions autograd sees, so H v = v^T H.
def hvp(func, inputs, v=None, create_graph=False, strict=False):
    return _second_order(func, inputs, v, create_graph, 'hvp')
