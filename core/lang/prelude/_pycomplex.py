# Python's complex numbers: the builtin `complex` type and imaginary literals.
#
# Design: a complex number is an instance of the class below holding two
# floats, `_re` and `_im`; the parser turns the literal 2j into a call of
# __kiln_imag__(2.0), which this module installs in builtins along with
# `complex`. Arithmetic follows CPython 3.11, whose results the oracle prints:
# an int or float operand is first made complex(x, 0.0) (which fixes the signs
# of zero parts), division is Smith's algorithm, and integer powers up to 100
# are repeated squaring. Complex tensors (prelude/_complex.py) meet these
# numbers through _tensor_op, which that module installs.
#
# Not done: complex numbers as dict or set keys compare by identity (Kiln's
# dicts hash instances by identity); attributes can be assigned.
import builtins
import math
import torch


def _real_of(x):
    # x as a float when it is a real number (bool, int, float), else None.
    if isinstance(x, float):
        return x
    if isinstance(x, int):
        return float(x)
    return None


def _parts(x):
    # (re, im) of a number, None for anything else.
    if isinstance(x, complex):
        return x._re, x._im
    r = _real_of(x)
    if r is None:
        return None
    return r, 0.0


def _part_repr(x):
    # A part as complex's repr writes it: float's repr without a trailing '.0'.
    s = repr(x)
    if s.endswith('.0'):
        return s[:-2]
    return s


def _hash_mix(h_re, h_im):
    # CPython's hash(z): hash(re) + 1000003 * hash(im) in wrapping 64-bit
    # arithmetic, done in 32-bit halves since Kiln's ints raise on overflow.
    m = 0xFFFFFFFF
    lo = (h_im & m) * 1000003
    hi = ((h_im >> 32) & m) * 1000003 + (lo >> 32)
    lo = (lo & m) + (h_re & m)
    hi = (hi + ((h_re >> 32) & m) + (lo >> 32)) & m
    lo = lo & m
    if hi >= 0x80000000:
        hi -= 0x100000000
    h = hi * 0x100000000 + lo
    return -2 if h == -1 else h


def _quot(ar, ai, br, bi):
    # (ar + ai j) / (br + bi j) by Smith's algorithm: the ratio of the
    # smaller divisor part to the larger keeps the intermediates in range.
    abr = abs(br)
    abi = abs(bi)
    if abr >= abi:
        if abr == 0.0:
            raise ZeroDivisionError('complex division by zero')
        ratio = bi / br
        den = br + bi * ratio
        return complex((ar + ai * ratio) / den, (ai - ar * ratio) / den)
    if abi >= abr:
        ratio = br / bi
        den = br * ratio + bi
        return complex((ar * ratio + ai) / den, (ai * ratio - ar) / den)
    nan = float('nan')  # a divisor part is nan
    return complex(nan, nan)


def _powu(z, n):
    # z ** n for an int n >= 0 by repeated squaring.
    r = complex(1.0, 0.0)
    p = z
    mask = 1
    while mask <= n:
        if n & mask:
            r = r * p
        mask = mask << 1
        p = p * p
    return r


def _pow(ar, ai, br, bi):
    # CPython reports a zero division anywhere in a power, and an infinite
    # result, with errors of their own.
    try:
        r = _pow_parts(ar, ai, br, bi)
    except ZeroDivisionError:
        raise ZeroDivisionError('0.0 to a negative or complex power')
    if math.isinf(r._re) or math.isinf(r._im):
        raise OverflowError('complex exponentiation')
    return r


def _pow_parts(ar, ai, br, bi):
    if bi == 0.0 and abs(br) <= 100.0 and br == math.floor(br):
        n = int(br)
        z = complex(ar, ai)
        if n >= 0:
            return _powu(z, n)
        p = _powu(z, -n)
        return _quot(1.0, 0.0, p._re, p._im)
    if br == 0.0 and bi == 0.0:
        return complex(1.0, 0.0)
    if ar == 0.0 and ai == 0.0:
        if bi != 0.0 or br < 0.0:
            raise ZeroDivisionError('0.0 to a negative or complex power')
        return complex(0.0, 0.0)
    vabs = math.hypot(ar, ai)
    try:
        length = vabs ** br
    except OverflowError:  # C's pow gives inf; the caller reports the overflow
        length = math.inf
    at = math.atan2(ai, ar)
    phase = at * br
    if bi != 0.0:
        length = length / math.exp(at * bi)
        phase = phase + bi * math.log(vabs)
    return complex(length * math.cos(phase), length * math.sin(phase))


def _parse(s):
    # complex('1+2j'), complex(' (1e3-4J) '), complex('-j'): CPython's grammar.
    t = s.strip()
    if t.startswith('(') and t.endswith(')'):
        t = t[1:-1].strip()
    bad = ValueError('complex() arg is a malformed string')
    if t == '' or ' ' in t or '\t' in t or '\n' in t:
        raise bad
    imag = t[-1] in 'jJ'
    body = t[:-1] if imag else t
    split = -1
    for i in range(1, len(body)):
        if body[i] in '+-' and body[i - 1] not in 'eE':
            split = i
    try:
        if not imag:
            if split >= 0:
                raise bad
            return float(body), 0.0
        re = 0.0
        if split >= 0:
            re = _float_part(body[:split], bad)
            body = body[split:]
        if body in ('', '+', '-'):
            return re, -1.0 if body == '-' else 1.0
        return re, _float_part(body, bad)
    except ValueError:
        raise bad


def _float_part(text, bad):
    # float() of one part, which must not carry its own parentheses or a second sign.
    if text == '' or text[0] == '(' or text[-1] == ')' or text[1:2] in ('+', '-'):
        raise bad
    return float(text)


_MISSING = object()


class complex:
    __module__ = 'builtins'

    def __init__(self, real=0.0, imag=_MISSING):
        if type(real) is float and type(imag) is float:  # the fast path of the ops below
            self._re = real
            self._im = imag
            return
        if isinstance(real, str):
            if imag is not _MISSING:
                raise TypeError("complex() can't take second arg if first is a string")
            self._re, self._im = _parse(real)
            return
        re = _arg_parts(real, 'first argument must be a string or a number')
        if imag is _MISSING:
            self._re, self._im = re
            return
        if isinstance(imag, str):
            raise TypeError("complex() second arg can't be a string")
        im = _arg_parts(imag, 'second argument must be a number')
        # complex(a, b) is a + b*1j, but a real part keeps the sign of its own zero.
        self._re = re[0] - im[1] if isinstance(imag, complex) else re[0]
        self._im = im[0] + re[1] if isinstance(real, complex) else im[0]

    @property
    def real(self):
        return self._re

    @property
    def imag(self):
        return self._im

    def conjugate(self):
        return complex(self._re, -self._im)

    def __complex__(self):
        return self

    def __getnewargs__(self):
        return (self._re, self._im)

    def __repr__(self):
        im = _part_repr(self._im)
        if self._re == 0.0 and math.copysign(1.0, self._re) > 0:
            return im + 'j'
        if im[0] != '-':
            im = '+' + im
        return '(' + _part_repr(self._re) + im + 'j)'

    def __str__(self):
        return self.__repr__()

    def __format__(self, spec):
        if spec == '':
            return self.__repr__()
        return _format(self, spec)

    def __hash__(self):
        return _hash_mix(hash(self._re), hash(self._im))

    def __bool__(self):
        return self._re != 0.0 or self._im != 0.0

    def __abs__(self):
        r = math.hypot(self._re, self._im)
        if math.isinf(r) and math.isfinite(self._re) and math.isfinite(self._im):
            raise OverflowError('absolute value too large')
        return r

    def __neg__(self):
        return complex(-self._re, -self._im)

    def __pos__(self):
        return complex(self._re, self._im)

    def __eq__(self, other):
        p = _parts(other)
        if p is None:
            return NotImplemented
        return self._re == p[0] and self._im == p[1]

    def __ne__(self, other):
        p = _parts(other)
        if p is None:
            return NotImplemented
        return self._re != p[0] or self._im != p[1]

    def __add__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('add', self, other)
        return complex(self._re + p[0], self._im + p[1])

    def __radd__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('radd', self, other)
        return complex(p[0] + self._re, p[1] + self._im)

    def __sub__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('sub', self, other)
        return complex(self._re - p[0], self._im - p[1])

    def __rsub__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('rsub', self, other)
        return complex(p[0] - self._re, p[1] - self._im)

    def __mul__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('mul', self, other)
        return _prod(self._re, self._im, p[0], p[1])

    def __rmul__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('rmul', self, other)
        return _prod(p[0], p[1], self._re, self._im)

    def __truediv__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('div', self, other)
        return _quot(self._re, self._im, p[0], p[1])

    def __rtruediv__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('rdiv', self, other)
        return _quot(p[0], p[1], self._re, self._im)

    def __pow__(self, other, mod=None):
        if mod is not None:
            raise ValueError('complex modulo')
        p = _parts(other)
        if p is None:
            return complex._tensor_op('pow', self, other)
        return _pow(self._re, self._im, p[0], p[1])

    def __rpow__(self, other):
        p = _parts(other)
        if p is None:
            return complex._tensor_op('rpow', self, other)
        return _pow(p[0], p[1], self._re, self._im)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        # torch.full((2,), 1j) and other torch calls given a complex number.
        return complex._torch_function(func, types, args, kwargs)

    # Installed by prelude/_complex.py: the ops with a tensor operand.
    def _tensor_op(name, z, other):
        return NotImplemented

    def _torch_function(func, types, args, kwargs):
        raise TypeError(func.__name__ + '(): complex numbers are not supported here')


def _prod(ar, ai, br, bi):
    return complex(ar * br - ai * bi, ar * bi + ai * br)


def _arg_parts(x, what):
    # (re, im) of a constructor argument: a number, or an object with __complex__ / __float__.
    p = _parts(x)
    if p is not None:
        return p
    if hasattr(x, '__complex__'):  # a complex tensor too
        c = x.__complex__()
        if not isinstance(c, complex):
            raise TypeError('__complex__ returned non-complex (type ' + type(c).__name__ + ')')
        return c._re, c._im
    if isinstance(x, torch.Tensor):
        return float(x), 0.0
    if hasattr(x, '__float__'):
        return float(x), 0.0
    raise TypeError('complex() ' + what + ", not '" + type(x).__name__ + "'")


# ---- format(z, spec) ----

def _split_spec(spec):
    # [[fill]align][sign][#][0][width][grouping][.precision][type] as a dict.
    out = {'fill': ' ', 'align': '>', 'sign': '-', 'alt': '', 'width': 0, 'group': '', 'prec': None, 'type': ''}
    i = 0
    if len(spec) >= 2 and spec[1] in '<>=^':
        out['fill'] = spec[0]
        out['align'] = spec[1]
        i = 2
    elif len(spec) >= 1 and spec[0] in '<>=^':
        out['align'] = spec[0]
        i = 1
    explicit_align = i > 0
    if i < len(spec) and spec[i] in '+- ':
        out['sign'] = spec[i]
        i += 1
    if i < len(spec) and spec[i] == '#':
        out['alt'] = '#'
        i += 1
    if i < len(spec) and spec[i] == '0':
        raise ValueError('Zero padding is not allowed in complex format specifier')
    j = i
    while j < len(spec) and spec[j].isdigit():
        j += 1
    if j > i:
        out['width'] = int(spec[i:j])
    i = j
    if i < len(spec) and spec[i] in ',_':
        out['group'] = spec[i]
        i += 1
    if i < len(spec) and spec[i] == '.':
        j = i + 1
        while j < len(spec) and spec[j].isdigit():
            j += 1
        if j == i + 1:
            raise ValueError('Format specifier missing precision')
        out['prec'] = int(spec[i + 1:j])
        i = j
    rest = spec[i:]
    if len(rest) > 1:
        raise ValueError('Invalid format specifier')
    if rest != '' and rest not in 'eEfFgGn':
        raise ValueError("Unknown format code '" + rest + "' for object of type 'complex'")
    if explicit_align and out['align'] == '=':
        raise ValueError("'=' alignment flag is not allowed in complex format specifier")
    out['type'] = rest
    return out


def _format_part(x, sign, f):
    # One part: float formatting with the spec's precision and type; with
    # neither, the repr-style digits str(z) prints.
    if f['type'] == '' and f['prec'] is None:
        s = _part_repr(x)
        if s[0] != '-' and sign != '-':
            s = sign + s
        return s
    t = f['type']
    if t == '':
        t = 'g'
    elif t == 'n':
        t = 'g'
    p = '' if f['prec'] is None else '.' + str(f['prec'])
    s = format(x, sign + f['alt'] + f['group'] + p + t)
    if f['type'] == '' and s.endswith('.0'):
        s = s[:-2]
    return s


def _format(z, spec):
    f = _split_spec(spec)
    # With no type, z prints as str(z) does: no zero real part, parentheses otherwise.
    skip_re = f['type'] == '' and z._re == 0.0 and math.copysign(1.0, z._re) > 0
    parens = f['type'] == '' and not skip_re
    if skip_re:
        s = _format_part(z._im, f['sign'], f) + 'j'
    else:
        s = _format_part(z._re, f['sign'], f) + _format_part(z._im, '+', f) + 'j'
    if parens:
        s = '(' + s + ')'
    pad = f['width'] - len(s)
    if pad <= 0:
        return s
    if f['align'] == '<':
        return s + f['fill'] * pad
    if f['align'] == '^':
        return f['fill'] * (pad // 2) + s + f['fill'] * (pad - pad // 2)
    return f['fill'] * pad + s


def _imag_literal(im):
    return complex(0.0, im)


builtins.complex = complex
builtins.__kiln_imag__ = _imag_literal
