# torch.fft: discrete Fourier transforms of real and complex tensors
# (complex tensors: prelude/_complex.py).
#
# Each 1-D transform is a product with a DFT matrix rather than a fast
# algorithm: O(N^2) per transform, fine for the lengths model scripts use
# (spectral filters, rotary tables, test signals), and every step is a real
# op, so gradients come out of the composition with PyTorch's values. The
# matrices are built in float64 from the exact index products k*n mod N (the
# angle of each entry is then exact, and cos/sin at multiples of pi/2 come
# out as exact 0 and +-1); the products also run in float64 and the result
# is cast back to the input's precision, which keeps float32 results within
# rounding of pocketfft's.
import torch
import math

_complex = torch._complex
_mats = {}


def _norm_scale(norm, n, inverse):
    if norm is None or norm == 'backward':
        return 1.0 / n if inverse else 1.0
    if norm == 'forward':
        return 1.0 if inverse else 1.0 / n
    if norm == 'ortho':
        return 1.0 / math.sqrt(n)
    raise RuntimeError('Invalid normalization mode: "' + str(norm) + '"')


# The matrices grow as N^2: past this length a transform would need
# hundreds of MB, so it is refused with an error that says why.
_MAX_N = 4096


def _dft(n_in, n_out, size, scale, device):
    # cos and sin of 2*pi*j*k/size for j < n_in (rows), k < n_out (columns), times scale, float64.
    if size > _MAX_N:
        raise NotImplementedError('kiln: torch.fft computes transforms as DFT matrix products, for lengths up to ' +
                                  str(_MAX_N) + ' (got ' + str(size) + ')')
    key = (n_in, n_out, size, scale, str(device))
    if key in _mats:
        return _mats[key]
    j = torch.arange(n_in, dtype=torch.int64).unsqueeze(1)
    k = torch.arange(n_out, dtype=torch.int64).unsqueeze(0)
    ang = ((j * k) % size).double() * (2.0 * math.pi / size)
    c, s = torch.cos(ang), torch.sin(ang)
    c = torch.where(c.abs() < 1e-12, torch.zeros_like(c), c) * scale
    s = torch.where(s.abs() < 1e-12, torch.zeros_like(s), s) * scale
    c, s = c.to(device), s.to(device)
    if n_in * n_out <= 65536:  # only small ones are kept: scripts transform the same lengths repeatedly
        _mats[key] = (c, s)
    return c, s


def _check_n(n):
    if n < 1:
        raise RuntimeError('Invalid number of data points (' + str(n) + ') specified')


def _fit(x, n):
    # x (dim last) cut or zero-padded to n entries.
    m = x.shape[-1]
    if m == n:
        return x
    if m > n:
        return x[..., :n]
    pad = torch.zeros(tuple(x.shape[:-1]) + (n - m,), dtype=x.dtype, device=x.device)
    return torch.cat((x, pad), -1)


def _real_input(x):
    if x.dtype == torch.float64:
        return x
    return x.float()


def _cplx_parts(x):
    # (re, im) of a complex or real tensor, float32 or float64; im None for a real one.
    if isinstance(x, _complex.ComplexTensor):
        return x._r[..., 0], x._r[..., 1]
    return _real_input(x), None


def _to_last(t, d):
    return t if t is None else t.movedim(d, -1)


def _finish(re, im, d, dtype, name):
    # Back to the input's precision, the transformed dim back in place.
    # + 0.0 turns the -0.0 of sums of signed zero products into pocketfft's 0.0.
    re = (re + 0.0).to(dtype).movedim(-1, d)
    im = (im + 0.0).to(dtype).movedim(-1, d)
    r = torch.stack((re, im), -1)
    if r.grad_fn is not None:
        torch._C._set_grad_fn_name(r, name)
    return _complex.ComplexTensor(r)


def _dim_of(x, dim):
    nd = x.dim() if isinstance(x, torch.Tensor) else x.ndim
    if dim < -nd or dim >= nd:
        raise IndexError('Dimension out of range (expected to be in range of [' + str(-nd) + ', ' +
                         str(nd - 1) + '], but got ' + str(dim) + ')')
    return dim + nd if dim < 0 else dim


def _c2c(input, n, dim, norm, inverse, name):
    d = _dim_of(input, dim)
    re, im = _cplx_parts(input)
    dtype = re.dtype
    re, im = _to_last(re, d), _to_last(im, d)
    if n is None:
        n = re.shape[-1]
    _check_n(n)
    c, s = _dft(n, n, n, _norm_scale(norm, n, inverse), re.device)
    if inverse:
        s = -s
    xr = _fit(re, n).double()
    # e^{-i t} (forward) times (xr + i xi): real xr c + xi s, imaginary xi c - xr s.
    out_re = xr @ c
    out_im = -(xr @ s)
    if im is not None:
        xi = _fit(im, n).double()
        out_re = out_re + xi @ s
        out_im = out_im + xi @ c
    return _finish(out_re, out_im, d, dtype, name)


def fft(input, n=None, dim=-1, norm=None):
    return _c2c(input, n, dim, norm, False, 'FftC2CBackward0' if _is_c(input) else 'FftR2CBackward0')


def ifft(input, n=None, dim=-1, norm=None):
    return _c2c(input, n, dim, norm, True, 'FftC2CBackward0' if _is_c(input) else 'FftR2CBackward0')


def _is_c(x):
    return isinstance(x, _complex.ComplexTensor)


def rfft(input, n=None, dim=-1, norm=None):
    if _is_c(input):
        raise TypeError('rfft expects a real input tensor, but got ' + _complex._scalar_name(input._r))
    d = _dim_of(input, dim)
    x = _to_last(_real_input(input), d)
    dtype = x.dtype
    if n is None:
        n = x.shape[-1]
    _check_n(n)
    c, s = _dft(n, n // 2 + 1, n, _norm_scale(norm, n, False), x.device)
    xr = _fit(x, n).double()
    return _finish(xr @ c, -(xr @ s), d, dtype, 'FftR2CBackward0')


def irfft(input, n=None, dim=-1, norm=None):
    # The Hermitian half spectrum X[0..n/2] stands for the whole one: bins
    # 1..(n-1)/2 count twice, and the imaginary parts of bin 0 (and of bin
    # n/2 for even n) drop out, as in pocketfft's c2r.
    d = _dim_of(input, dim)
    re, im = _cplx_parts(input)
    dtype = re.dtype
    re, im = _to_last(re, d), _to_last(im, d)
    if n is None:
        n = 2 * (re.shape[-1] - 1)
    _check_n(n)
    m = n // 2 + 1
    c, s = _dft(m, n, n, _norm_scale(norm, n, True), re.device)
    w = torch.full((m, 1), 2.0, dtype=torch.float64, device=re.device)
    w[0] = 1.0
    if n % 2 == 0:
        w[m - 1] = 1.0
    out = _fit(re, m).double() @ (c * w)
    if im is not None:
        out = out - _fit(im, m).double() @ (s * w)
    out = (out + 0.0).to(dtype).movedim(-1, d)
    if out.grad_fn is not None:
        torch._C._set_grad_fn_name(out, 'FftC2RBackward0')
    return out


def _dims_of(input, s, dim, two):
    nd = input.dim() if isinstance(input, torch.Tensor) else input.ndim
    if dim is None:
        if two:
            dim = (-2, -1)
        elif s is not None:
            dim = tuple(range(nd - len(s), nd))
        else:
            dim = tuple(range(nd))
    if isinstance(dim, int):
        dim = (dim,)
    if s is None:
        s = [None] * len(dim)
    if len(s) != len(dim):
        raise RuntimeError('When given, dim and shape arguments must have the same length')
    return list(s), list(dim)


def fftn(input, s=None, dim=None, norm=None):
    s, dim = _dims_of(input, s, dim, False)
    out = input
    for n, d in zip(s, dim):
        out = fft(out, n, d, norm)
    return out


def ifftn(input, s=None, dim=None, norm=None):
    s, dim = _dims_of(input, s, dim, False)
    out = input
    for n, d in zip(s, dim):
        out = ifft(out, n, d, norm)
    return out


def fft2(input, s=None, dim=(-2, -1), norm=None):
    return fftn(input, s, dim, norm)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return ifftn(input, s, dim, norm)


def rfftn(input, s=None, dim=None, norm=None):
    s, dim = _dims_of(input, s, dim, False)
    out = rfft(input, s[-1], dim[-1], norm)
    for n, d in zip(s[:-1], dim[:-1]):
        out = fft(out, n, d, norm)
    return out


def irfftn(input, s=None, dim=None, norm=None):
    s, dim = _dims_of(input, s, dim, False)
    out = input
    for n, d in zip(s[:-1], dim[:-1]):
        out = ifft(out, n, d, norm)
    return irfft(out, s[-1], dim[-1], norm)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    return rfftn(input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    return irfftn(input, s, dim, norm)


def fftfreq(n, d=1.0, dtype=None, device=None, requires_grad=False):
    # [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n)
    idx = torch.cat((torch.arange(0, (n - 1) // 2 + 1), torch.arange(-(n // 2), 0)))
    return _freqs(idx, n, d, dtype, device, requires_grad)


def rfftfreq(n, d=1.0, dtype=None, device=None, requires_grad=False):
    return _freqs(torch.arange(0, n // 2 + 1), n, d, dtype, device, requires_grad)


def _freqs(idx, n, d, dtype, device, requires_grad):
    out = idx.to(torch.float32 if dtype is None else dtype) * (1.0 / (n * d))
    if device is not None:
        out = out.to(device)
    if requires_grad:
        out.requires_grad_(True)
    return out


def _shift(input, dim, up):
    nd = input.dim() if isinstance(input, torch.Tensor) else input.ndim
    if dim is None:
        dim = tuple(range(nd))
    if isinstance(dim, int):
        dim = (dim,)
    dims = [_dim_of(input, d) for d in dim]
    shape = input.shape
    shifts = [shape[d] // 2 if up else (shape[d] + 1) // 2 for d in dims]
    if len(dims) == 0:
        return input.clone()
    return input.roll(tuple(shifts), tuple(dims))


def fftshift(input, dim=None):
    return _shift(input, dim, True)


def ifftshift(input, dim=None):
    return _shift(input, dim, False)
