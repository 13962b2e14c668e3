# torch.autograd.forward_ad: dual tensors for forward-mode AD, over Kiln's reverse mode.
# make_dual returns a differentiable alias of the primal (a fresh leaf, or a view where the
# primal has history of its own) and records it with its tangent at the current level. Ops then
# build an ordinary autograd graph; unpack_dual of a tensor reached from dual tensors computes
# its tangent J t by the double-vjp trick of torch.func.jvp: g(u) = J^T u is linear in u, so
# the vjp of g with the tangents gives J t. Consequences: dual tensors report requires_grad,
# and ops run under torch.no_grad carry no tangent.
import torch
from collections import namedtuple

UnpackedDualTensor = namedtuple('UnpackedDualTensor', ['primal', 'tangent'])

__all__ = ['UnpackedDualTensor', 'enter_dual_level', 'exit_dual_level', 'make_dual', 'unpack_dual', 'dual_level']

_level = [-1]  # the current level; PyTorch allows one at a time, numbered 0
_duals = []  # (dual tensor, tangent, whether the primal had history of its own) at this level


def enter_dual_level():
    if _level[0] >= 0:
        raise RuntimeError('Nested forward mode AD is not supported at the moment')
    _level[0] = 0
    return 0


def exit_dual_level(*, level=None):
    if level is None:
        level = _level[0]
    if level != _level[0]:
        raise RuntimeError('Trying to exit a forward AD level that was not the last one that was created. '
                           'This is not supported.')
    if level < 0:
        raise RuntimeError('Dual level must be a positive number.')
    _duals.clear()
    _level[0] = -1


class dual_level:
    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback):
        exit_dual_level()


def _size_str(shape):
    return '[' + ', '.join(str(s) for s in shape) + ']'


def _check_floating(t, what):
    if not (t.is_floating_point() or t.is_complex()):
        raise ValueError('Expected {} to be floating point or complex, but got: {}'.format(what, t.dtype))


def make_dual(tensor, tangent, *, level=None):
    if level is None:
        level = _level[0]
    if level < 0:
        raise RuntimeError('Trying to create a dual Tensor for forward AD but no level exists, make sure to '
                           'enter_dual_level() first.')
    _check_floating(tensor, 'primal')
    _check_floating(tangent, 'tangent')
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError('Trying to set a forward gradient that has a different size than that of the original '
                           'Tensor, this is not supported. Tensor is of size {} while the given forward gradient '
                           'is of size {}.'.format(_size_str(tensor.shape), _size_str(tangent.shape)))
    if _tangent(tensor) is not None:
        raise RuntimeError('Making a dual Tensor based on a Tensor that already has a forward gradient at the '
                           'same level {} is not supported.'.format(level))
    # PyTorch keeps the tangent object when its layout is the primal's, else a copy in that layout.
    if tangent.stride() != tensor.stride():
        tangent = tangent.contiguous() if tensor.is_contiguous() else tangent.clone()
    outer = tensor.requires_grad
    dual = tensor.view_as(tensor) if outer else tensor.detach().requires_grad_(True)
    _duals.append((dual, tangent, outer))
    return dual


# Function.apply of a custom Function with a jvp and no backward (which the double-vjp trick
# needs): its outputs become new duals carrying the tangents its jvp computes from the inputs'.
# None where no input has a tangent.
def _function_jvp(cls, ctx, args, outputs):
    if _level[0] < 0:
        return None
    tangents = [_tangent(a) if isinstance(a, torch.Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return None
    ins = [torch.zeros_like(a) if t is None and isinstance(a, torch.Tensor) else t for a, t in zip(args, tangents)]
    out_tangents = cls.jvp(ctx, *ins)
    single = isinstance(outputs, torch.Tensor)
    outs = (outputs,) if single else tuple(outputs)
    out_tangents = (out_tangents,) if single else tuple(out_tangents)
    duals = []
    for o, t in zip(outs, out_tangents):
        duals.append(o.detach().requires_grad_(True))
        _duals.append((duals[-1], t, False))
    return duals[0] if single else tuple(duals)


def unpack_dual(tensor, *, level=None):
    if not isinstance(tensor, torch.Tensor):
        raise TypeError("_unpack_dual(): argument 'dual' (position 1) must be Tensor, not " + type(tensor).__name__)
    if level is None:
        level = _level[0]
    tangent = _tangent(tensor) if level >= 0 else None
    # The primal is a new alias, as PyTorch's; it keeps the graph only where that leads to
    # history of the caller's.
    if tangent is None or _any_outer():
        primal = tensor.view_as(tensor) if tensor.requires_grad else tensor.detach()
    else:
        primal = tensor.detach()
    return UnpackedDualTensor(primal, tangent)


def _any_outer():
    for _, _, outer in _duals:
        if outer:
            return True
    return False


# The tangent of t at the current level: a dual's own, J t for a tensor computed from duals,
# None for one that does not depend on any.
def _tangent(t):
    for dual, tangent, _ in _duals:
        if dual is t:
            return tangent
    if len(_duals) == 0 or not t.requires_grad:
        return None
    with torch.enable_grad():
        u = torch.zeros_like(t).requires_grad_(True)
        gs = torch.autograd.grad([t], [d for d, _, _ in _duals], [u], retain_graph=True, create_graph=True,
                                 allow_unused=True)
        pairs = [(g, d[1]) for g, d in zip(gs, _duals) if g is not None]
        if len(pairs) == 0:
            return None
        pairs = [(g, tan.to(dtype=g.dtype)) for g, tan in pairs if g.requires_grad]
        keep = _any_outer()
        jt = None
        if len(pairs) > 0:
            jt = torch.autograd.grad([p[0] for p in pairs], [u], [p[1] for p in pairs], retain_graph=True,
                                     create_graph=keep, allow_unused=True)[0]
    if jt is None:
        return torch.zeros_like(t)
    return jt if keep else jt.detach()
