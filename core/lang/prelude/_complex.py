# Complex tensors: torch.complex64 / torch.complex128, torch.complex,
# torch.polar, torch.view_as_complex and torch.view_as_real.
#
# Design: Kiln's tensors are real, so a complex tensor is a ComplexTensor
# holding one real tensor `_r` of shape (*shape, 2), each element's (real,
# imag) pair side by side: the interleaved layout PyTorch itself uses, which
# makes torch.view_as_real(z) z's own storage (in-place writes through it show
# in z, as in PyTorch). Every complex op is composed from real ops on `_r`,
# so autograd and the JIT tracer need nothing of their own: the gradient a
# real loss leaves on `_r` is (dL/dRe, dL/dIm), PyTorch's convention for
# z.grad. complex64 keeps `_r` in float32, complex128 in float64.
#
# torch.* functions reach these classes through __torch_function__: the op
# bridge (core/lang/torch_bridge.cpp) calls it when an argument is neither a
# tensor nor a number, so torch.cat([z, w]), torch.zeros(2, dtype=torch.cfloat)
# and x.to(torch.complex64) land in ComplexTensor.__torch_function__ below.
#
# Python complex numbers (1j, complex(1, 2): prelude/_pycomplex.py) mix with
# complex tensors here: z * 1j, torch.tensor([1 + 2j]), z.item(), torch.full
# with a complex fill value, and 1j * x for a real tensor x. A complex scalar
# is rounded to the tensor's precision first, as PyTorch casts it.
# isinstance(z, torch.Tensor) holds (the class sets _kiln_tensor_like, which
# isinstance reads), so in this module a check for ComplexTensor must come
# before one for torch.Tensor. Ops not written here raise a
# NotImplementedError naming them rather than computing on the pairs.
import builtins
import torch
import math

_Scalar = builtins.complex  # before this module's complex() (torch.complex) hides the name


class ComplexDType:
    # torch.complex64 and torch.complex128: print and compare like PyTorch's dtypes.
    def __init__(self, name, real, itemsize):
        self._name = name
        self._real = real
        self.itemsize = itemsize
        self.is_complex = True
        self.is_floating_point = False
        self.is_signed = True

    def __repr__(self):
        return 'torch.' + self._name

    def to_real(self):
        return self._real

    def to_complex(self):
        return self

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        # torch.zeros(2, dtype=torch.complex64) and the like.
        return _torch_function(func.__name__, args, {} if kwargs is None else kwargs)


torch.complex64 = ComplexDType('complex64', torch.float32, 8)
torch.cfloat = torch.complex64
torch.complex128 = ComplexDType('complex128', torch.float64, 16)
torch.cdouble = torch.complex128


def _is_cdtype(d):
    return isinstance(d, ComplexDType)


def _scalar_name(r):
    # PyTorch's ScalarType names in error messages.
    return 'ComplexDouble' if r.dtype == torch.float64 else 'ComplexFloat'


def _floating(r):
    # The real dtype a complex result keeps its pairs in: float64 stays, all else float32.
    if r.dtype == torch.float64 or r.dtype == torch.float32:
        return r
    return r.float()


def _pairs(re, im, name=None):
    # A complex tensor from real and imaginary parts of one shape.
    r = torch.stack((re, im), -1)
    if name is not None and r.grad_fn is not None:
        torch._C._set_grad_fn_name(r, name)
    return ComplexTensor(r)


def _named(r, name):
    if r.grad_fn is not None:
        torch._C._set_grad_fn_name(r, name)
    return r


def _parts(x):
    # (real, imag) of a complex tensor, a real tensor or a number (imag None: zero).
    if isinstance(x, ComplexTensor):
        return x._r[..., 0], x._r[..., 1]
    if isinstance(x, _Scalar):
        return x.real, x.imag
    if isinstance(x, torch.Tensor) or isinstance(x, float) or isinstance(x, int):
        return x, None
    raise TypeError("unsupported operand type for a complex tensor: '" + type(x).__name__ + "'")


def _real_to_pairs(x, dtype=None):
    # A real tensor or a number (a complex one too) as (..., 2) pairs; a
    # number's pair in `dtype` (rounded once, from its double parts) or float32.
    if isinstance(x, torch.Tensor):
        x = _floating(x)
        return torch.stack((x, torch.zeros_like(x)), -1)
    pair = [x.real, x.imag] if isinstance(x, _Scalar) else [float(x), 0.0]
    if dtype is None:
        return torch.tensor(pair)
    return torch.tensor(pair, dtype=torch.float64).to(dtype)


def _scalar_in(s, r):
    # The parts of complex number s rounded to the precision of pairs r (PyTorch
    # casts a Python complex to the tensor's dtype before the op).
    if r.dtype == torch.float64:
        return s.real, s.imag
    p = torch.tensor([s.real, s.imag], dtype=torch.float64).to(r.dtype).tolist()
    return p[0], p[1]


def _dim(d, ndim):
    # A complex dim counted from the end names the same dim of the pairs.
    if d < 0:
        d += ndim
    if d < 0 or d >= max(ndim, 1):
        lo = -max(ndim, 1)
        raise IndexError('Dimension out of range (expected to be in range of [' + str(lo) + ', ' +
                         str(-lo - 1) + '], but got ' + str(d - ndim if d < 0 else d) + ')')
    return d


def _key(key):
    # An index into the complex dims: the pairs' last dim is kept whole. Only
    # an Ellipsis needs the explicit slice (it would otherwise reach the pairs).
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if k is Ellipsis:
            return key + (slice(None),)
    return key


def _unsupported(name, r):
    raise NotImplementedError('"' + name + '" not implemented for \'' + _scalar_name(r) + "'")


class ComplexTensor:
    _kiln_tensor_like = True  # isinstance(z, torch.Tensor), torch.is_tensor(z)

    def __init__(self, pairs):
        self._r = pairs

    # ---- metadata ----
    @property
    def dtype(self):
        return torch.complex128 if self._r.dtype == torch.float64 else torch.complex64

    @property
    def shape(self):
        return self._r.shape[:-1]

    @property
    def ndim(self):
        return self._r.dim() - 1

    @property
    def device(self):
        return self._r.device

    @property
    def is_cuda(self):
        return self._r.is_cuda

    @property
    def requires_grad(self):
        return self._r.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        self._r.requires_grad_(flag)

    @property
    def grad(self):
        g = self._r.grad
        return None if g is None else ComplexTensor(g)

    @grad.setter
    def grad(self, value):
        self._r.grad = None if value is None else value._r

    @property
    def grad_fn(self):
        return self._r.grad_fn

    @property
    def is_leaf(self):
        return self._r.is_leaf

    @property
    def real(self):
        return self._r[..., 0]

    @property
    def imag(self):
        return self._r[..., 1]

    @property
    def T(self):
        return self.permute(*reversed(range(self.ndim)))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def size(self, dim=None):
        if dim is None:
            return self.shape
        return self.shape[_dim(dim, self.ndim)]

    def dim(self):
        return self.ndim

    def numel(self):
        return self._r.numel() // 2

    def nelement(self):
        return self.numel()

    def element_size(self):
        return self.dtype.itemsize

    def is_complex(self):
        return True

    def is_floating_point(self):
        return False

    def is_contiguous(self):
        return self._r.is_contiguous()

    def stride(self, dim=None):
        # In complex elements, as PyTorch counts them.
        st = tuple([s // 2 for s in self._r.stride()[:-1]])
        return st if dim is None else st[_dim(dim, self.ndim)]

    def storage_offset(self):
        return self._r.storage_offset() // 2

    def __len__(self):
        if self.ndim == 0:
            raise TypeError('len() of a 0-d tensor')
        return self._r.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError('iteration over a 0-d tensor')
        return iter([ComplexTensor(row) for row in self._r.unbind(0)])

    def __repr__(self):
        return torch._C._complex_repr(self._r)

    def __hash__(self):
        return id(self)

    # ---- autograd ----
    def requires_grad_(self, flag=True):
        self._r.requires_grad_(flag)
        return self

    def retain_grad(self):
        self._r.retain_grad()

    def backward(self, gradient=None, retain_graph=None, create_graph=False):
        if gradient is None and self._r.requires_grad:
            if self.numel() != 1:
                raise RuntimeError('grad can be implicitly created only for scalar outputs')
            raise RuntimeError('grad can be implicitly created only for real scalar outputs')
        if gradient is None:
            self._r.backward()  # the autograd engine's own error
        self._r.backward(_as_complex(gradient)._r, retain_graph=retain_graph, create_graph=create_graph)

    def detach(self):
        return ComplexTensor(self._r.detach())

    def detach_(self):
        self._r.detach_()
        return self

    # ---- shape ----
    def view(self, *shape):
        if len(shape) == 1 and (isinstance(shape[0], tuple) or isinstance(shape[0], list)):
            shape = tuple(shape[0])
        if len(shape) == 1 and (_is_cdtype(shape[0]) or isinstance(shape[0], torch.dtype)):
            raise NotImplementedError('kiln: view(dtype) is not supported for complex tensors')
        return ComplexTensor(self._r.view(*(tuple(shape) + (2,))))

    def reshape(self, *shape):
        if len(shape) == 1 and (isinstance(shape[0], tuple) or isinstance(shape[0], list)):
            shape = tuple(shape[0])
        return ComplexTensor(self._r.reshape(*(tuple(shape) + (2,))))

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        if self.ndim == 0:
            return self.reshape(1)
        s, e = _dim(start_dim, self.ndim), _dim(end_dim, self.ndim)
        return ComplexTensor(self._r.flatten(s, e))

    def unflatten(self, dim, sizes):
        return ComplexTensor(self._r.unflatten(_dim(dim, self.ndim), sizes))

    def unsqueeze(self, dim):
        return ComplexTensor(self._r.unsqueeze(_dim(dim, self.ndim + 1)))

    def squeeze(self, dim=None):
        if dim is None:
            keep = [i for i in range(self.ndim) if self._r.shape[i] != 1]
            return ComplexTensor(self._r.reshape(*([self._r.shape[i] for i in keep] + [2])))
        if isinstance(dim, tuple) or isinstance(dim, list):
            dims = [_dim(d, self.ndim) for d in dim]
            out = self._r
            for d in sorted(dims, reverse=True):
                out = out.squeeze(d)
            return ComplexTensor(out)
        return ComplexTensor(self._r.squeeze(_dim(dim, self.ndim)))

    def permute(self, *dims):
        if len(dims) == 1 and (isinstance(dims[0], tuple) or isinstance(dims[0], list)):
            dims = tuple(dims[0])
        n = self.ndim
        return ComplexTensor(self._r.permute(*([_dim(d, n) for d in dims] + [n])))

    def transpose(self, dim0, dim1):
        return ComplexTensor(self._r.transpose(_dim(dim0, self.ndim), _dim(dim1, self.ndim)))

    def t(self):
        if self.ndim > 2:
            raise RuntimeError('t() expects a tensor with <= 2 dimensions, but self is ' + str(self.ndim) + 'D')
        return self if self.ndim < 2 else self.transpose(0, 1)

    def movedim(self, source, destination):
        return ComplexTensor(self._r.movedim(_dim(source, self.ndim), _dim(destination, self.ndim)))

    def expand(self, *shape):
        if len(shape) == 1 and (isinstance(shape[0], tuple) or isinstance(shape[0], list)):
            shape = tuple(shape[0])
        return ComplexTensor(self._r.expand(*(tuple(shape) + (2,))))

    def expand_as(self, other):
        return self.expand(other.shape)

    def repeat(self, *sizes):
        if len(sizes) == 1 and (isinstance(sizes[0], tuple) or isinstance(sizes[0], list)):
            sizes = tuple(sizes[0])
        return ComplexTensor(self._r.repeat(*(tuple(sizes) + (1,))))

    def contiguous(self):
        return ComplexTensor(self._r.contiguous())

    def clone(self):
        return ComplexTensor(self._r.clone())

    def roll(self, shifts, dims=None):
        if dims is None:
            return self.flatten().roll(shifts, 0).view(self.shape)
        if isinstance(dims, int):
            dims = _dim(dims, self.ndim)
        else:
            dims = tuple([_dim(d, self.ndim) for d in dims])
        return ComplexTensor(self._r.roll(shifts, dims))

    def flip(self, *dims):
        if len(dims) == 1 and (isinstance(dims[0], tuple) or isinstance(dims[0], list)):
            dims = tuple(dims[0])
        return ComplexTensor(self._r.flip(*[_dim(d, self.ndim) for d in dims]))

    def narrow(self, dim, start, length):
        return ComplexTensor(self._r.narrow(_dim(dim, self.ndim), start, length))

    def select(self, dim, index):
        return ComplexTensor(self._r.select(_dim(dim, self.ndim), index))

    def unbind(self, dim=0):
        return tuple([ComplexTensor(x) for x in self._r.unbind(_dim(dim, self.ndim))])

    def chunk(self, chunks, dim=0):
        return tuple([ComplexTensor(x) for x in self._r.chunk(chunks, _dim(dim, self.ndim))])

    def split(self, split_size, dim=0):
        return tuple([ComplexTensor(x) for x in self._r.split(split_size, _dim(dim, self.ndim))])

    def __getitem__(self, key):
        return ComplexTensor(self._r[_key(key)])

    def __setitem__(self, key, value):
        if isinstance(value, ComplexTensor):
            self._r[_key(key)] = value._r
        else:
            self._r[_key(key)] = _real_to_pairs(value, self._r.dtype).to(self._r.dtype)

    # ---- conversions ----
    def _to_real(self, dtype):
        import warnings  # here, not at the top: loading it would lengthen every script's start
        warnings.warn('Casting complex values to real discards the imaginary part', UserWarning, stacklevel=3)
        return self._r[..., 0].to(dtype)

    def to(self, *args, **kwargs):
        dtype = kwargs.pop('dtype', None)
        rest = []
        for a in args:
            if _is_cdtype(a) or isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, ComplexTensor):
                dtype = a.dtype
                rest.append(a.device)
            elif isinstance(a, torch.Tensor):
                dtype = a.dtype
                rest.append(a.device)
            else:
                rest.append(a)
        r = self._r
        if len(rest) > 0 or len(kwargs) > 0:
            r = r.to(*rest, **kwargs)
        if dtype is None:
            return self if r is self._r else ComplexTensor(r)
        if not _is_cdtype(dtype):
            return ComplexTensor(r)._to_real(dtype)
        if r.dtype != dtype.to_real():
            r = r.to(dtype.to_real())
        return self if r is self._r else ComplexTensor(r)

    def type_as(self, other):
        return self.to(other.dtype)

    def type(self, dtype=None):
        if dtype is None:
            return 'torch.ComplexDoubleTensor' if self._r.dtype == torch.float64 else 'torch.ComplexFloatTensor'
        return self.to(dtype)

    def cpu(self):
        return self.to('cpu')

    def cuda(self, device=None):
        return ComplexTensor(self._r.cuda(device))

    def cfloat(self):
        return self.to(torch.complex64)

    def cdouble(self):
        return self.to(torch.complex128)

    def float(self):
        return self._to_real(torch.float32)

    def double(self):
        return self._to_real(torch.float64)

    def half(self):
        return self._to_real(torch.float16)

    def long(self):
        return self._to_real(torch.int64)

    def int(self):
        return self._to_real(torch.int32)

    def item(self):
        if self.numel() != 1:
            raise RuntimeError('a Tensor with ' + str(self.numel()) +
                               ' elements cannot be converted to Scalar')
        p = self._r.reshape(2).tolist()
        return _Scalar(p[0], p[1])

    def tolist(self):
        return _zip_parts(self._r[..., 0].tolist(), self._r[..., 1].tolist())

    def __complex__(self):
        return self.item()

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError('Boolean value of Tensor with more than one value is ambiguous')
        return bool((self._r != 0).any())

    # ---- arithmetic ----
    def __add__(self, other):
        return _add(self, other, 1)

    def __radd__(self, other):
        return _add(self, other, 1)

    def __sub__(self, other):
        return _add(self, other, -1)

    def __rsub__(self, other):
        return _add(-self, other, 1)

    def __mul__(self, other):
        return _mul(self, other)

    def __rmul__(self, other):
        return _mul(self, other)

    def __truediv__(self, other):
        return _div(self, other)

    def __rtruediv__(self, other):
        return _div(_as_complex(other, self._r.dtype), self)

    def __matmul__(self, other):
        return _matmul(self, other)

    def __rmatmul__(self, other):
        return _matmul(other, self)

    def __pow__(self, exponent):
        if isinstance(exponent, int) and exponent >= 0:
            out = torch.ones_like(self.real) if exponent == 0 else None
            out = ComplexTensor(torch.stack((out, torch.zeros_like(out)), -1)) if exponent == 0 else self
            for i in range(exponent - 1):
                out = out * self
            return out
        raise NotImplementedError('kiln: complex ** supports non-negative Python int exponents only')

    def __neg__(self):
        return ComplexTensor(_named(-self._r, 'NegBackward0'))

    def __pos__(self):
        return self

    def __iadd__(self, other):
        return self.copy_(self + other)

    def __isub__(self, other):
        return self.copy_(self - other)

    def __imul__(self, other):
        return self.copy_(self * other)

    def __itruediv__(self, other):
        return self.copy_(self / other)

    def add(self, other, alpha=1):
        return _add(self, other * alpha if alpha != 1 else other, 1)

    def sub(self, other, alpha=1):
        return _add(self, other * alpha if alpha != 1 else other, -1)

    def mul(self, other):
        return _mul(self, other)

    def div(self, other):
        return _div(self, other)

    def neg(self):
        return -self

    def negative(self):
        return -self

    def matmul(self, other):
        return _matmul(self, other)

    def copy_(self, src):
        if isinstance(src, ComplexTensor):
            self._r.copy_(src._r)
        else:
            self._r.copy_(_real_to_pairs(src, self._r.dtype).expand_as(self._r))
        return self

    def add_(self, other, alpha=1):
        return self.copy_(self.add(other, alpha))

    def sub_(self, other, alpha=1):
        return self.copy_(self.sub(other, alpha))

    def mul_(self, other):
        return self.copy_(self * other)

    def div_(self, other):
        return self.copy_(self / other)

    def zero_(self):
        self._r.zero_()
        return self

    def fill_(self, value):
        return self.copy_(value)

    # ---- elementwise ----
    def _safe_parts(self):
        # (zero, re, im) with 1 in place of the parts of exact zeros, so abs and
        # angle give zero gradients there (PyTorch's convention) instead of nan.
        re, im = self._r[..., 0], self._r[..., 1]
        zero = (re == 0) & (im == 0)
        one = torch.ones_like(re)
        return zero, torch.where(zero, one, re), torch.where(zero, one, im)

    def abs(self):
        zero, re, im = self._safe_parts()
        out = torch.where(zero, torch.zeros_like(re), torch.hypot(re, im))
        return _named(out, 'AbsBackward0')

    def __abs__(self):
        return self.abs()

    def absolute(self):
        return self.abs()

    def angle(self):
        zero, re, im = self._safe_parts()
        # at zeros the value of atan2 itself (pi for -0.0 + 0j), without a gradient
        at_zero = torch.atan2(self._r[..., 1], self._r[..., 0]).detach()
        out = torch.where(zero, at_zero, torch.atan2(im, re))
        return _named(out, 'AngleBackward0')

    def conj(self):
        return _pairs(self._r[..., 0], -self._r[..., 1], 'ConjBackward0')

    def conj_physical(self):
        return self.conj()

    def resolve_conj(self):
        return self

    def resolve_neg(self):
        return self

    def exp(self):
        re, im = self._r[..., 0], self._r[..., 1]
        m = torch.exp(re)
        return _pairs(m * torch.cos(im), m * torch.sin(im), 'ExpBackward0')

    def log(self):
        return _pairs(torch.log(self.abs()), self.angle(), 'LogBackward0')

    def sqrt(self):
        m = torch.sqrt(self.abs())
        a = self.angle() * 0.5
        return _pairs(m * torch.cos(a), m * torch.sin(a), 'SqrtBackward0')

    def reciprocal(self):
        return _div(_as_complex(1.0, self._r.dtype), self)

    def sgn(self):
        a = self.abs()
        safe = torch.where(a == 0, torch.ones_like(a), a)
        return ComplexTensor(self._r / safe.unsqueeze(-1))

    def square(self):
        return self * self

    # ---- reductions ----
    def sum(self, dim=None, keepdim=False, dtype=None):
        out = ComplexTensor(_named(_reduce(self, dim, keepdim, 'sum'), 'SumBackward' + ('0' if dim is None else '1')))
        return out if dtype is None else out.to(dtype)

    def mean(self, dim=None, keepdim=False, dtype=None):
        out = ComplexTensor(_named(_reduce(self, dim, keepdim, 'mean'), 'MeanBackward' + ('0' if dim is None else '1')))
        return out if dtype is None else out.to(dtype)

    def prod(self, dim=None, keepdim=False):
        if dim is None:
            items = self.flatten().unbind(0)
        else:
            items = self.unbind(dim)
        out = items[0]
        for x in items[1:]:
            out = out * x
        return out.unsqueeze(dim) if keepdim and dim is not None else out

    # ---- comparisons ----
    def __eq__(self, other):
        return _eq(self, other)

    def __ne__(self, other):
        return torch.logical_not(_eq(self, other))

    def eq(self, other):
        return _eq(self, other)

    def ne(self, other):
        return torch.logical_not(_eq(self, other))

    def __lt__(self, other):
        _unsupported('lt_cpu', self._r)

    def __le__(self, other):
        _unsupported('le_cpu', self._r)

    def __gt__(self, other):
        _unsupported('gt_cpu', self._r)

    def __ge__(self, other):
        _unsupported('ge_cpu', self._r)

    def isfinite(self):
        return torch.isfinite(self._r).all(-1)

    def isnan(self):
        return torch.isnan(self._r).any(-1)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        d = (self - other).abs()
        return bool((d <= atol + rtol * _as_complex(other, self._r.dtype).abs()).all())

    def sort(self, *args, **kwargs):
        raise TypeError(' Sort does not support complex dtypes on CPU')

    def __getattr__(self, name):
        # A real tensor's method that is not written above: say so, rather than
        # let anything compute on the (real, imag) pairs.
        if name in _REDUCTION_NAMES:
            _unsupported(_REDUCTION_NAMES[name], self._r)
        if name.startswith('__') or not hasattr(self._r, name):
            raise AttributeError("'Tensor' object has no attribute '" + name + "'")
        raise NotImplementedError('kiln: Tensor.' + name + ' is not implemented for complex tensors')

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return _torch_function(func.__name__, args, {} if kwargs is None else kwargs)


# PyTorch's kernel names in the errors of ops complex tensors do not support.
_REDUCTION_NAMES = {'max': 'max_all', 'min': 'min_all', 'argmax': 'argmax_cpu', 'argmin': 'argmin_cpu',
                    'topk': 'topk_cpu', 'clamp': 'clamp', 'relu': 'clamp_min_cpu',
                    'floor': 'floor', 'ceil': 'ceil', 'round': 'round', 'sign': 'sign_cpu'}


def _as_complex(x, dtype=None):
    # A complex tensor for x, a real tensor or number given zero imaginary parts.
    if isinstance(x, ComplexTensor):
        return x
    if isinstance(x, torch.Tensor):
        return ComplexTensor(_real_to_pairs(x))
    return ComplexTensor(_real_to_pairs(x, dtype))


def _zip_parts(re, im):
    # tolist(): nested lists of Python complex numbers from the parts' lists.
    if isinstance(re, list):
        return [_zip_parts(re[i], im[i]) for i in range(len(re))]
    return _Scalar(re, im)


def _add(a, b, sign):
    # a + sign * b for a complex tensor a.
    if isinstance(b, ComplexTensor):
        r = a._r + b._r if sign > 0 else a._r - b._r
        return ComplexTensor(_named(r, 'AddBackward0' if sign > 0 else 'SubBackward0'))
    if isinstance(b, torch.Tensor):
        re = a._r[..., 0] + b if sign > 0 else a._r[..., 0] - b
        im = a._r[..., 1]
        re, im = torch.broadcast_tensors(re, im)
        return _pairs(re, im, 'AddBackward0' if sign > 0 else 'SubBackward0')
    if isinstance(b, _Scalar):
        p = _real_to_pairs(b, a._r.dtype).to(a._r.device)
        return ComplexTensor(_named(a._r + p if sign > 0 else a._r - p,
                                    'AddBackward0' if sign > 0 else 'SubBackward0'))
    if isinstance(b, float) or isinstance(b, int):
        return ComplexTensor(_named(a._r + torch.tensor([sign * float(b), 0.0], dtype=a._r.dtype,
                                                           device=a._r.device),
                                    'AddBackward0' if sign > 0 else 'SubBackward0'))
    return NotImplemented


def _mul(a, b):
    if isinstance(b, ComplexTensor):
        ar, ai = a._r[..., 0], a._r[..., 1]
        br, bi = b._r[..., 0], b._r[..., 1]
        return _pairs(ar * br - ai * bi, ar * bi + ai * br, 'MulBackward0')
    if isinstance(b, _Scalar):
        ar, ai = a._r[..., 0], a._r[..., 1]
        br, bi = _scalar_in(b, a._r)
        return _pairs(ar * br - ai * bi, ar * bi + ai * br, 'MulBackward0')
    if isinstance(b, torch.Tensor):
        return ComplexTensor(_named(a._r * (b if b.dim() == 0 else b.unsqueeze(-1)), 'MulBackward0'))
    if isinstance(b, float) or isinstance(b, int):
        return ComplexTensor(_named(a._r * b, 'MulBackward0'))
    return NotImplemented


def _div(a, b):
    # (ar + i ai) / (br + i bi) = ((ar br + ai bi) + i (ai br - ar bi)) / (br^2 + bi^2)
    if isinstance(b, ComplexTensor):
        ar, ai = a._r[..., 0], a._r[..., 1]
        br, bi = b._r[..., 0], b._r[..., 1]
        den = br * br + bi * bi
        return _pairs((ar * br + ai * bi) / den, (ai * br - ar * bi) / den, 'DivBackward0')
    if isinstance(b, _Scalar):  # in the pairs' precision, as PyTorch divides
        return _div(a, ComplexTensor(_real_to_pairs(b, a._r.dtype).to(a._r.device)))
    if isinstance(b, torch.Tensor):
        return ComplexTensor(_named(a._r / (b if b.dim() == 0 else b.unsqueeze(-1)), 'DivBackward0'))
    if isinstance(b, float) or isinstance(b, int):
        return ComplexTensor(_named(a._r / b, 'DivBackward0'))
    return NotImplemented


def _cpp_name(x):
    # c10's element type names, as matmul's dtype errors print them.
    base = 'double' if x.dtype == torch.float64 or x.dtype == torch.complex128 else 'float'
    return 'c10::complex<' + base + '>' if isinstance(x, ComplexTensor) else base


def _type_name(x):
    if isinstance(x, ComplexTensor):
        return _scalar_name(x._r)
    return _legacy(x.dtype)


def _matmul(a, b):
    # Four real products: (ar + i ai)(br + i bi). Like PyTorch, both sides must have one dtype.
    if not isinstance(a, ComplexTensor) or not isinstance(b, ComplexTensor) or a.dtype != b.dtype:
        if a.dim() == 1 and b.dim() == 1:
            raise RuntimeError('dot : expected both vectors to have same dtype, but found ' +
                               _type_name(a) + ' and ' + _type_name(b))
        raise RuntimeError('expected m1 and m2 to have the same dtype, but got: ' + _cpp_name(a) + ' != ' +
                           _cpp_name(b))
    ar, ai = _parts(a)
    br, bi = _parts(b)
    re = ar @ br
    im = None
    if bi is not None:
        re = re - ai @ bi
        im = ar @ bi
    if ai is not None:
        im = ai @ br if im is None else im + ai @ br
    return _pairs(re, im, 'MmBackward0')


def _eq(a, b):
    if isinstance(b, ComplexTensor) or isinstance(b, torch.Tensor):
        other = b._r if isinstance(b, ComplexTensor) else _real_to_pairs(b)
    else:
        other = _real_to_pairs(b, a._r.dtype).to(a._r.device)
    return (a._r == other).all(-1)


def _reduce(z, dim, keepdim, how):
    nd = z.ndim
    if dim is None:
        dims = list(range(nd))
        keepdim = False
    elif isinstance(dim, int):
        dims = [_dim(dim, nd)]
    else:
        dims = [_dim(d, nd) for d in dim]
    if len(dims) == 0:
        return z._r.clone()
    r = z._r.sum(dims, keepdim) if how == 'sum' else z._r.mean(dims, keepdim)
    return r


# ---- torch.* functions ----

def complex(real, imag):
    if not isinstance(real, torch.Tensor) or not isinstance(imag, torch.Tensor):
        raise TypeError('complex(): argument \'real\' and \'imag\' must be Tensor')
    ok = (torch.float32, torch.float64, torch.float16)
    if real.dtype not in ok or imag.dtype not in ok:
        raise NotImplementedError('Expected both inputs to be Half, Float or Double tensors but got ' +
                           _legacy(real.dtype) + ' and ' + _legacy(imag.dtype))
    if real.dtype != imag.dtype:
        raise RuntimeError('Expected object of scalar type ' + _legacy(real.dtype) +
                           ' but got scalar type ' + _legacy(imag.dtype) + ' for second argument')
    re, im = torch.broadcast_tensors(_floating(real), _floating(imag))
    return _pairs(re, im, 'ComplexBackward0')


def _legacy(d):
    if _is_cdtype(d):
        return 'ComplexDouble' if d._name == 'complex128' else 'ComplexFloat'
    return {torch.float32: 'Float', torch.float64: 'Double', torch.float16: 'Half', torch.int64: 'Long',
            torch.int32: 'Int', torch.bool: 'Bool', torch.bfloat16: 'BFloat16', torch.int16: 'Short',
            torch.int8: 'Char', torch.uint8: 'Byte'}[d]


def polar(abs, angle):
    if not isinstance(abs, torch.Tensor) or not isinstance(angle, torch.Tensor):
        raise TypeError("polar(): argument 'abs' and 'angle' must be Tensor")
    if abs.dtype != angle.dtype:
        raise RuntimeError('Expected object of scalar type ' + _legacy(abs.dtype) +
                           ' but got scalar type ' + _legacy(angle.dtype) + ' for second argument')
    if abs.dtype not in (torch.float32, torch.float64):
        raise NotImplementedError('Expected both inputs to be Half, Float or Double tensors but got ' +
                           _legacy(abs.dtype) + ' and ' + _legacy(angle.dtype))
    re, im = torch.broadcast_tensors(abs * torch.cos(angle), abs * torch.sin(angle))
    return _pairs(re, im, 'PolarBackward0')


def view_as_real(input):
    if not isinstance(input, ComplexTensor):
        raise TypeError('view_as_real is only supported for complex tensors')
    # A view of the pairs, not the pairs themselves: a new tensor on the same storage, as in PyTorch.
    r = input._r
    return _named(r.view(r.shape), 'ViewAsRealBackward0')


def view_as_complex(input):
    if isinstance(input, ComplexTensor):
        raise TypeError('view_as_complex is not supported for complex tensors')
    if not isinstance(input, torch.Tensor):
        raise TypeError("view_as_complex(): argument 'input' (position 1) must be Tensor, not " +
                        type(input).__name__)
    if input.dtype not in (torch.float32, torch.float64):
        raise NotImplementedError('view_as_complex is only supported for half, float and double tensors, but got a tensor '
                           'of scalar type: ' + _legacy(input.dtype))
    if input.dim() == 0:
        raise RuntimeError('Input tensor must have one or more dimensions')
    if input.shape[-1] != 2:
        raise RuntimeError('Tensor must have a last dimension of size 2')
    if input.stride(-1) != 1:
        raise RuntimeError('Tensor must have a last dimension with stride 1')
    for s in input.stride()[:-1]:
        if s % 2 != 0:
            raise RuntimeError('Tensor must have a stride divisible by 2 for all but last dimension')
    if input.storage_offset() % 2 != 0:
        raise RuntimeError('Tensor must have a storage_offset divisible by 2')
    return ComplexTensor(_named(input.view(input.shape), 'ViewAsComplexBackward0'))


def is_complex(input):
    if isinstance(input, ComplexTensor):
        return True
    if not isinstance(input, torch.Tensor):
        raise TypeError("is_complex(): argument 'input' (position 1) must be Tensor, not " + type(input).__name__)
    return False


def real(input):
    return input.real


def imag(input):
    return input.imag


def conj(input):
    return input.conj()


torch.complex = complex
torch.conj = conj
torch.real = real
torch.imag = imag
torch.polar = polar
torch.view_as_real = view_as_real
torch.view_as_complex = view_as_complex
torch.is_complex = is_complex


# ---- __torch_function__: torch.* calls with a complex tensor or dtype ----

def _size_args(args):
    if len(args) == 1 and (isinstance(args[0], tuple) or isinstance(args[0], list)):
        return tuple(args[0])
    return tuple(args)


def _factory(name, args, kwargs):
    # torch.zeros/ones/empty/randn/full(..., dtype=complex): the pairs made by
    # the real op, the imaginary parts zero (randn: each part N(0, 1/2)).
    dtype = kwargs.pop('dtype')
    grad = kwargs.pop('requires_grad', False)
    kwargs['dtype'] = dtype.to_real()
    if name == 'full':
        size, value = _size_args(args[:1]), args[1]
        r = torch.zeros(size + (2,), **kwargs)
        if isinstance(value, _Scalar):
            r[..., 1] = value.imag
            value = value.real
        r[..., 0] = value
    elif name.endswith('_like'):
        like = args[0]
        shape = like.shape
        kwargs.setdefault('device', like.device)
        r = getattr(torch, name[:-5])(tuple(shape) + (2,), **kwargs)
    else:
        r = getattr(torch, name)(_size_args(args) + (2,), **kwargs)
    if name == 'ones' or name == 'ones_like':
        r[..., 1] = 0.0
    if name == 'randn' or name == 'randn_like':
        r.mul_(math.sqrt(0.5))
    if grad:
        r.requires_grad_(True)
    return ComplexTensor(r)


_BINARY = {'add': _add, 'sub': None, 'subtract': None, 'mul': _mul, 'multiply': _mul,
           'div': _div, 'divide': _div, 'true_divide': _div, 'matmul': _matmul, 'mm': _matmul,
           'bmm': _matmul}


def _binary(name, a, b):
    # A Python complex operand: the other's complex precision (torch.mul(x, 1j)).
    if isinstance(a, _Scalar):
        a = _as_complex(a, _pair_dtype(b))
    if isinstance(b, _Scalar) and not isinstance(a, ComplexTensor):
        a = _as_complex(a)
    if name in ('sub', 'subtract'):
        return _as_complex(a, None) - b if not isinstance(a, ComplexTensor) else a - b
    if name in ('mul', 'multiply', 'add'):
        if not isinstance(a, ComplexTensor):
            a, b = b, a
        return _BINARY[name](a, b, 1) if name == 'add' else _BINARY[name](a, b)
    if name in ('matmul', 'mm', 'bmm'):
        return _matmul(a, b)
    return _div(_as_complex(a), b)


def _torch_function(name, args, kwargs):
    dtype = kwargs.get('dtype', None)
    if name == 'full' and dtype is None and len(args) > 1 and isinstance(args[1], _Scalar):
        dtype = _default_cdtype()
        kwargs = dict(kwargs)
        kwargs['dtype'] = dtype
    # torch.zeros_like(z): z's complex dtype unless dtype= names another.
    if name in ('zeros_like', 'ones_like', 'empty_like', 'randn_like') and dtype is None and \
            len(args) > 0 and isinstance(args[0], ComplexTensor):
        dtype = args[0].dtype
        kwargs = dict(kwargs)
        kwargs['dtype'] = dtype
    if _is_cdtype(dtype) and name in ('zeros', 'ones', 'empty', 'randn', 'full', 'zeros_like',
                                       'ones_like', 'empty_like', 'randn_like'):
        return _factory(name, args, dict(kwargs))
    if name in ('cat', 'concat', 'concatenate', 'stack'):
        return _cat(name, args, kwargs)
    if name in ('to', 'type', 'type_as') and len(args) >= 2 and isinstance(args[0], torch.Tensor) and \
            not isinstance(args[0], ComplexTensor):
        target = args[1].dtype if name == 'type_as' else args[1]
        if _is_cdtype(target):
            return ComplexTensor(_real_to_pairs(args[0]).to(target.to_real()))
    if name in _BINARY and len(args) == 2:
        return _binary(name, args[0], args[1])
    if len(args) > 0 and isinstance(args[0], ComplexTensor):
        if name in ('real', 'imag'):
            return getattr(args[0], name)
        if name in ('is_complex', 'is_floating_point', 'numel') or name in _METHODS:
            return getattr(args[0], name)(*args[1:], **kwargs)
    raise NotImplementedError('kiln: torch.' + name + ' is not implemented for complex tensors')


# torch.<name>(z, ...) that are z.<name>(...).
_METHODS = ('abs', 'absolute', 'angle', 'conj', 'conj_physical', 'resolve_conj', 'resolve_neg', 'exp', 'log',
            'sqrt', 'reciprocal', 'sgn', 'square', 'sum', 'mean', 'prod', 'reshape', 'flatten', 'unflatten',
            'unsqueeze', 'squeeze', 'permute', 'transpose', 't', 'movedim', 'roll', 'flip', 'narrow', 'select',
            'unbind', 'chunk', 'split', 'clone', 'neg', 'negative', 'eq', 'ne', 'isfinite', 'isnan',
            'allclose', 'detach')


def _cat(name, args, kwargs):
    tensors = args[0] if len(args) > 0 else kwargs['tensors']
    dim = args[1] if len(args) > 1 else kwargs.get('dim', 0)
    zs = [_as_complex(t) for t in tensors]
    nd = zs[0].ndim + (1 if name == 'stack' else 0)
    d = _dim(dim, nd)
    rs = [z._r for z in zs]
    if name == 'stack':
        return ComplexTensor(_named(torch.stack(rs, d), 'StackBackward0'))
    return ComplexTensor(_named(torch.cat(rs, d), 'CatBackward0'))





# ---- Python complex numbers meeting tensors ----

def _default_cdtype():
    # The complex dtype of the default float dtype: complex64, or complex128 under float64.
    return torch.complex128 if torch.get_default_dtype() == torch.float64 else torch.complex64


def _pair_dtype(t):
    # The pairs' dtype of a complex result with tensor t: float64 only from a double tensor.
    if isinstance(t, ComplexTensor):
        return t._r.dtype
    if isinstance(t, torch.Tensor) and t.dtype == torch.float64:
        return torch.float64
    return _default_cdtype().to_real()


def _scalar_tensor_op(name, s, t):
    # complex number s (op) tensor t, or the reflected op (names with an 'r').
    if isinstance(t, ComplexTensor):
        z = t
    elif isinstance(t, torch.Tensor):
        z = _as_complex(t)
    else:
        return NotImplemented
    if name == 'add' or name == 'radd':
        return _add(z, s, 1)
    if name == 'mul' or name == 'rmul':
        return _mul(z, s)
    if name == 'sub':
        return _add(-z, s, 1)
    if name == 'rsub':
        return _add(z, s, -1)
    if name == 'div':  # s / t is t.reciprocal() * s, as PyTorch's __rtruediv__ computes it
        return _mul(_as_complex(t.reciprocal()), s)
    if name == 'rdiv':
        return _div(z, s)
    if name == 'rpow':
        return z ** s
    raise NotImplementedError('kiln: a complex number ** a tensor is not implemented')


def _scalar_torch_function(func, types, args, kwargs):
    return _torch_function(func.__name__, args, {} if kwargs is None else kwargs)


_Scalar._tensor_op = _scalar_tensor_op
_Scalar._torch_function = _scalar_torch_function


def _data_parts(x):
    # torch.tensor's data as two nested lists of floats: real and imaginary parts.
    if isinstance(x, list) or isinstance(x, tuple):
        re = []
        im = []
        for v in x:
            p = _data_parts(v)
            re.append(p[0])
            im.append(p[1])
        return re, im
    if isinstance(x, _Scalar):
        return x.real, x.imag
    if isinstance(x, ComplexTensor):
        return x._r[..., 0].tolist(), x._r[..., 1].tolist()
    if isinstance(x, torch.Tensor):
        return x.double().tolist(), torch.zeros_like(x, dtype=torch.float64).tolist()
    if isinstance(x, bool) or isinstance(x, int) or isinstance(x, float):
        return float(x), 0.0
    raise TypeError("new(): invalid data type '" + type(x).__name__ + "'")


def _tensor(data, dtype, device, requires_grad):
    # torch.tensor(data) holding Python complex numbers or given a complex dtype
    # (the op bridge sends both here): each part made in double, then rounded once.
    if dtype is None:
        dtype = data.dtype if isinstance(data, ComplexTensor) else _default_cdtype()
    if not _is_cdtype(dtype):
        raise TypeError('must be real number, not complex')
    re, im = _data_parts(data)
    r = torch.stack((torch.tensor(re, dtype=torch.float64), torch.tensor(im, dtype=torch.float64)), -1)
    r = r.to(dtype.to_real())
    if device is not None:
        r = r.to(device)
    if requires_grad:
        r.requires_grad_(True)
    return ComplexTensor(r)
