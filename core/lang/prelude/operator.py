# operator: the operators as functions, and itemgetter / attrgetter /
# methodcaller as CPython defines them (reprs included).

import builtins as _builtins


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def ge(a, b):
    return a >= b


def gt(a, b):
    return a > b


def not_(a):
    return not a


def truth(a):
    return True if a else False


def is_(a, b):
    return a is b


def is_not(a, b):
    return a is not b


def abs(a):
    return _builtins.abs(a)


def add(a, b):
    return a + b


def and_(a, b):
    return a & b


def floordiv(a, b):
    return a // b


def index(a):
    if isinstance(a, int):
        return int(a)
    if hasattr(a, '__index__'):
        return a.__index__()
    raise TypeError("'" + type(a).__name__ + "' object cannot be interpreted as an integer")


def inv(a):
    return ~a


invert = inv


def lshift(a, b):
    return a << b


def mod(a, b):
    return a % b


def mul(a, b):
    return a * b


def matmul(a, b):
    return a @ b


def neg(a):
    return -a


def or_(a, b):
    return a | b


def pos(a):
    return +a


def pow(a, b):
    return a ** b


def rshift(a, b):
    return a >> b


def sub(a, b):
    return a - b


def truediv(a, b):
    return a / b


def xor(a, b):
    return a ^ b


def _is_sequence(a):
    return isinstance(a, (list, tuple, str)) or hasattr(a, '__getitem__')


def concat(a, b):
    if not _is_sequence(a):
        raise TypeError("'" + type(a).__name__ + "' object can't be concatenated")
    return a + b


def contains(a, b):
    return b in a


def countOf(a, b):
    count = 0
    for x in a:
        if x is b or x == b:
            count += 1
    return count


def indexOf(a, b):
    i = 0
    for x in a:
        if x is b or x == b:
            return i
        i += 1
    raise ValueError('sequence.index(x): x not in sequence')


def getitem(a, b):
    return a[b]


def setitem(a, b, c):
    a[b] = c


def delitem(a, b):
    del a[b]


def length_hint(obj, default=0):
    try:
        return len(obj)
    except TypeError:
        return default


def iadd(a, b):
    a += b
    return a


def isub(a, b):
    a -= b
    return a


def imul(a, b):
    a *= b
    return a


def itruediv(a, b):
    a /= b
    return a


def ifloordiv(a, b):
    a //= b
    return a


def imod(a, b):
    a %= b
    return a


def ipow(a, b):
    a **= b
    return a


def imatmul(a, b):
    a @= b
    return a


def iand(a, b):
    a &= b
    return a


def ior(a, b):
    a |= b
    return a


def ixor(a, b):
    a ^= b
    return a


def ilshift(a, b):
    a <<= b
    return a


def irshift(a, b):
    a >>= b
    return a


def iconcat(a, b):
    if not _is_sequence(a):
        raise TypeError("'" + type(a).__name__ + "' object can't be concatenated")
    a += b
    return a


def _args_repr(args, kwargs):
    parts = [repr(a) for a in args]
    for k, v in kwargs.items():
        parts.append(k + '=' + repr(v))
    return ', '.join(parts)


class itemgetter:
    def __init__(self, item, *items):
        self._items = (item,) + items

    def __call__(self, obj):
        if len(self._items) == 1:
            return obj[self._items[0]]
        return tuple([obj[i] for i in self._items])

    def __repr__(self):
        return 'operator.itemgetter(' + _args_repr(self._items, {}) + ')'


def _resolve_attr(obj, name):
    for part in name.split('.'):
        obj = getattr(obj, part)
    return obj


class attrgetter:
    def __init__(self, attr, *attrs):
        for a in (attr,) + attrs:
            if not isinstance(a, str):
                raise TypeError('attribute name must be a string')
        self._attrs = (attr,) + attrs

    def __call__(self, obj):
        if len(self._attrs) == 1:
            return _resolve_attr(obj, self._attrs[0])
        return tuple([_resolve_attr(obj, a) for a in self._attrs])

    def __repr__(self):
        return 'operator.attrgetter(' + _args_repr(self._attrs, {}) + ')'


class methodcaller:
    def __init__(self, name, *args, **kwargs):
        if not isinstance(name, str):
            raise TypeError('method name must be a string')
        self._name = name
        self._args = args
        self._kwargs = kwargs

    def __call__(self, obj):
        return getattr(obj, self._name)(*self._args, **self._kwargs)

    def __repr__(self):
        return 'operator.methodcaller(' + _args_repr((self._name,) + self._args, self._kwargs) + ')'
