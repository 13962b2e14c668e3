# cmath: math for complex numbers (the complex type: prelude/_pycomplex.py).
#
# Plain formulas on the parts, scaled where a naive one overflows or loses
# the sign of a zero; the special values of inf and nan parts (CPython's
# tables) are not all reproduced, finite arguments are.
import math

pi = math.pi
e = math.e
tau = math.tau
inf = math.inf
nan = math.nan
infj = complex(0.0, math.inf)
nanj = complex(0.0, math.nan)


def _z(x):
    # x as a complex number: a real number or complex, else CPython's TypeError.
    if isinstance(x, complex):
        return x
    if isinstance(x, int) or isinstance(x, float):
        return complex(float(x), 0.0)
    if hasattr(x, '__complex__'):
        return x.__complex__()
    if hasattr(x, '__float__'):
        return complex(float(x), 0.0)
    raise TypeError("must be real number, not " + type(x).__name__)


def phase(x):
    z = _z(x)
    return math.atan2(z.imag, z.real)


def polar(x):
    z = _z(x)
    return abs(z), math.atan2(z.imag, z.real)


def rect(r, phi):
    r = float(r)
    phi = float(phi)
    if phi == 0.0:  # keeps rect(r, 0) real with the zero's sign, as CPython
        return complex(r, r * phi)
    return complex(r * math.cos(phi), r * math.sin(phi))


def sqrt(x):
    # Scaled by 1/8 inside the hypot so that huge parts do not overflow; the
    # smaller result part is derived from the larger to keep its precision.
    z = _z(x)
    re, im = z.real, z.imag
    if re == 0.0 and im == 0.0:
        return complex(0.0, im)
    if math.isinf(im):
        return complex(math.inf, im)
    ax = abs(re)
    ay = abs(im)
    s = 2.0 * math.sqrt(ax / 8.0 + math.hypot(ax / 8.0, ay / 8.0))
    d = ay / (2.0 * s)
    if re >= 0.0:
        return complex(s, math.copysign(d, im))
    return complex(d, math.copysign(s, im))


def exp(x):
    z = _z(x)
    if z.imag == 0.0:
        return complex(math.exp(z.real), z.imag)
    m = math.exp(z.real)
    return complex(m * math.cos(z.imag), m * math.sin(z.imag))


def log(x, base=None):
    z = _z(x)
    if z.real == 0.0 and z.imag == 0.0:
        raise ValueError('math domain error')
    r = complex(_log_abs(z.real, z.imag), math.atan2(z.imag, z.real))
    if base is None:
        return r
    return r / log(base)


def _log_abs(re, im):
    # log|z|: near |z| = 1 through log1p of |z|^2 - 1, which keeps its digits;
    # huge parts halved inside the hypot.
    ax = abs(re)
    ay = abs(im)
    if ax > 1e307 or ay > 1e307:
        return math.log(math.hypot(ax / 2.0, ay / 2.0)) + math.log(2.0)
    h = math.hypot(ax, ay)
    if 0.71 <= h and h <= 1.73:
        am = max(ax, ay)
        an = min(ax, ay)
        return math.log1p((am - 1.0) * (am + 1.0) + an * an) / 2.0
    return math.log(h)


def log10(x):
    z = log(x)
    return complex(z.real / math.log(10.0), z.imag / math.log(10.0))


def sin(x):
    z = _z(x)
    return complex(math.sin(z.real) * math.cosh(z.imag), math.cos(z.real) * math.sinh(z.imag))


def cos(x):
    z = _z(x)
    return complex(math.cos(z.real) * math.cosh(z.imag), -(math.sin(z.real) * math.sinh(z.imag)))


def tan(x):
    return sin(x) / cos(x)


def isfinite(x):
    z = _z(x)
    return math.isfinite(z.real) and math.isfinite(z.imag)


def isinf(x):
    z = _z(x)
    return math.isinf(z.real) or math.isinf(z.imag)


def isnan(x):
    z = _z(x)
    return math.isnan(z.real) or math.isnan(z.imag)


def isclose(a, b, rel_tol=1e-09, abs_tol=0.0):
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError('tolerances must be non-negative')
    a = _z(a)
    b = _z(b)
    if a == b:
        return True
    if isinf(a) or isinf(b):
        return False
    diff = abs(a - b)
    return diff <= rel_tol * abs(b) or diff <= rel_tol * abs(a) or diff <= abs_tol
