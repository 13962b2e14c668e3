# torch.gradient: the derivative of sampled values along each requested dim,
# numpy.gradient's estimate. Inside, central differences (second order);
# at the two ends, one-sided differences of first or second order
# (edge_order). Spacing is one number for every dim, a number per dim, or
# per dim a 1-D tensor of coordinates (unevenly spaced samples). Written from
# tensor ops, so autograd and the JIT see ordinary slices, arithmetic and cat.
import torch


def _check_args(input, spacing, dim, edge_order):
    if edge_order not in (1, 2):
        raise RuntimeError('torch.gradient only supports edge_order=1 and edge_order=2.')
    dims = list(range(input.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    dims = [d + input.dim() if d < 0 else d for d in dims]
    for d in dims:
        if d < 0 or d >= input.dim():
            raise IndexError('Dimension out of range (expected to be in range of [' + str(-input.dim()) +
                             ', ' + str(input.dim() - 1) + '], but got ' + str(d) + ')')
        if input.shape[d] < edge_order + 1:
            raise RuntimeError('torch.gradient expected each dimension size to be at least edge_order+1')
    if spacing is None:
        spacing = 1.0
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            if dim is None:
                raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list of "
                                   "length equal to 'self.dim() = " + str(input.dim()) + "', since dim argument "
                                   "was not given, but got a list of length " + str(len(spacing)))
            raise RuntimeError('torch.gradient expected spacing to be unspecified, a scalar or it\'s spacing '
                               'and dim arguments to have the same length, but got a spacing argument of length ' +
                               str(len(spacing)) + ' and a dim argument of length ' + str(len(dims)) + '.')
        return list(spacing), dims
    return [spacing] * len(dims), dims


def _along(x, d, start, stop=None):
    n = x.shape[d]
    start = start + n if start < 0 else start
    stop = n if stop is None else (stop + n if stop < 0 else stop)
    return x.narrow(d, start, stop - start)


def _uniform(x, d, h, edge_order):
    center = (_along(x, d, 2) - _along(x, d, 0, -2)) / h
    if edge_order == 1:
        first = (_along(x, d, 1, 2) - _along(x, d, 0, 1)) / h
        last = (_along(x, d, -1) - _along(x, d, -2, -1)) / h
    else:
        first = (-1.5 * _along(x, d, 0, 1) + 2 * _along(x, d, 1, 2) - 0.5 * _along(x, d, 2, 3)) / h
        last = (0.5 * _along(x, d, -3, -2) - 2 * _along(x, d, -2, -1) + 1.5 * _along(x, d, -1)) / h
    return torch.cat([first, center / 2, last], d)


def _coordinates(x, d, coords, edge_order):
    # Second-order weights of three unevenly spaced samples (numpy.gradient's).
    dx = coords.diff()
    shape = [1] * x.dim()
    shape[d] = -1
    h1, h2 = dx[:-1], dx[1:]
    a = (-h2 / (h1 * (h1 + h2))).reshape(shape)
    b = ((h2 - h1) / (h1 * h2)).reshape(shape)
    c = (h1 / (h2 * (h1 + h2))).reshape(shape)
    center = a * _along(x, d, 0, -2) + b * _along(x, d, 1, -1) + c * _along(x, d, 2)
    if edge_order == 1:
        first = (_along(x, d, 1, 2) - _along(x, d, 0, 1)) / dx[0]
        last = (_along(x, d, -1) - _along(x, d, -2, -1)) / dx[-1]
    else:
        p, q = dx[0], dx[1]
        first = (-(2.0 * p + q) / (p * (p + q)) * _along(x, d, 0, 1) + (p + q) / (p * q) * _along(x, d, 1, 2)
                 + -p / (q * (p + q)) * _along(x, d, 2, 3))
        p, q = dx[-1], dx[-2]
        last = (p / (q * (p + q)) * _along(x, d, -3, -2) - (p + q) / (p * q) * _along(x, d, -2, -1)
                + (2 * p + q) / (p * (p + q)) * _along(x, d, -1))
    return torch.cat([first, center, last], d)


def gradient(input, *, spacing=None, dim=None, edge_order=1):
    spacings, dims = _check_args(input, spacing, dim, edge_order)
    out = []
    for h, d in zip(spacings, dims):
        if isinstance(h, torch.Tensor) and h.dim() > 0:
            out.append(_coordinates(input, d, h, edge_order))
        else:
            out.append(_uniform(input, d, h.item() if isinstance(h, torch.Tensor) else h, edge_order))
    return tuple(out)


torch.gradient = gradient
