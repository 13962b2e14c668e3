# collections: the containers model code uses, as CPython's behave.
# OrderedDict is the interpreter's (a dict that prints and types as one);
# defaultdict, Counter and deque are classes written here; as Kiln cannot
# subclass dict or list, they are not instances of dict or list (isinstance
# differs), but index, iterate, compare and print like CPython's. namedtuple
# makes tuple subclasses, as CPython's.

from _collections import OrderedDict
import _frames
from keyword import iskeyword as _iskeyword


# The read-only dict protocol of the classes below, over their dict `_d`.
class _DictView:
    def __contains__(self, key):
        return key in self._d

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def get(self, key, default=None):
        return self._d.get(key, default)


class defaultdict(_DictView):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        self.default_factory = default_factory
        self._d = dict(*args, **kwargs)

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self._d[key] = value
        return value

    def __getitem__(self, key):
        if key in self._d:
            return self._d[key]
        return self.__missing__(key)

    def __setitem__(self, key, value):
        self._d[key] = value

    def __delitem__(self, key):
        del self._d[key]

    def __eq__(self, other):
        return self._d == (other._d if isinstance(other, defaultdict) else other)

    def pop(self, key, *default):
        return self._d.pop(key, *default)

    def setdefault(self, key, default=None):
        return self._d.setdefault(key, default)

    def update(self, *args, **kwargs):
        self._d.update(*args, **kwargs)

    def clear(self):
        self._d.clear()

    def copy(self):
        return defaultdict(self.default_factory, self._d)

    def __repr__(self):
        factory = 'None' if self.default_factory is None else repr(self.default_factory)
        return 'defaultdict(' + factory + ', ' + repr(self._d) + ')'


class Counter(_DictView):
    def __init__(self, iterable=None, **kwargs):
        self._d = {}
        self.update(iterable, **kwargs)

    def update(self, iterable=None, **kwargs):
        if iterable is not None:
            if isinstance(iterable, (dict, Counter)):
                for key, n in iterable.items():
                    self._d[key] = self._d.get(key, 0) + n
            else:
                for key in iterable:
                    self._d[key] = self._d.get(key, 0) + 1
        for key, n in kwargs.items():
            self._d[key] = self._d.get(key, 0) + n

    def subtract(self, iterable=None, **kwargs):
        if iterable is not None:
            pairs = iterable.items() if isinstance(iterable, (dict, Counter)) else [(k, 1) for k in iterable]
            for key, n in pairs:
                self._d[key] = self._d.get(key, 0) - n
        for key, n in kwargs.items():
            self._d[key] = self._d.get(key, 0) - n

    def __getitem__(self, key):
        return self._d.get(key, 0)

    def __setitem__(self, key, value):
        self._d[key] = value

    def __delitem__(self, key):
        if key in self._d:
            del self._d[key]

    def __eq__(self, other):
        return isinstance(other, Counter) and self._d == other._d

    def total(self):
        return sum(self._d.values())

    def most_common(self, n=None):
        ordered = sorted(self._d.items(), key=lambda kv: kv[1], reverse=True)
        return ordered if n is None else ordered[:n]

    def elements(self):
        out = []
        for key, n in self._d.items():
            out.extend([key] * n)
        return out

    def _keep_positive(self):
        return Counter({k: n for k, n in self._d.items() if n > 0})

    def __add__(self, other):
        result = Counter(self._d)
        result.update(other)
        return result._keep_positive()

    def __sub__(self, other):
        result = Counter(self._d)
        result.subtract(other)
        return result._keep_positive()

    def __repr__(self):
        if not self._d:
            return 'Counter()'
        return 'Counter({' + ', '.join(repr(k) + ': ' + repr(n) for k, n in self.most_common()) + '})'


class deque:
    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None and maxlen < 0:
            raise ValueError('maxlen must be non-negative')
        self.maxlen = maxlen
        self._items = []
        self.extend(iterable)

    def _trim_left(self):
        if self.maxlen is not None and len(self._items) > self.maxlen:
            del self._items[:len(self._items) - self.maxlen]

    def _trim_right(self):
        if self.maxlen is not None and len(self._items) > self.maxlen:
            del self._items[self.maxlen:]

    def append(self, x):
        self._items.append(x)
        self._trim_left()

    def appendleft(self, x):
        self._items.insert(0, x)
        self._trim_right()

    def extend(self, iterable):
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        for x in iterable:
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop(0)

    def clear(self):
        self._items = []

    def rotate(self, n=1):
        if self._items:
            n = n % len(self._items)
            self._items = self._items[-n:] + self._items[:-n] if n else self._items

    def count(self, x):
        return self._items.count(x)

    def index(self, x, start=0, stop=None):
        n = len(self._items)
        stop = n if stop is None else stop
        start = max(start + n, 0) if start < 0 else start
        stop = max(stop + n, 0) if stop < 0 else min(stop, n)
        for i in range(start, stop):
            if self._items[i] == x:
                return i
        raise ValueError(repr(x) + ' is not in deque')

    def remove(self, x):
        if x not in self._items:
            raise ValueError(repr(x) + ' is not in deque')
        self._items.remove(x)

    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, x):
        self._items[i] = x

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __contains__(self, x):
        return x in self._items

    def __eq__(self, other):
        return isinstance(other, deque) and self._items == other._items

    def __repr__(self):
        if self.maxlen is None:
            return 'deque(' + repr(self._items) + ')'
        return 'deque(' + repr(self._items) + ', maxlen=' + str(self.maxlen) + ')'


def _field_accessor(index):
    # CPython's _tuplegetter: reads item `index`; fields cannot be assigned.
    def get(self):
        return self[index]

    def set(self, value):
        raise AttributeError("can't set attribute")

    def delete(self):
        raise AttributeError("can't delete attribute")
    return property(get, set, delete, 'Alias for field number ' + str(index))


def _plural(n, word):
    return str(n) + ' ' + word + ('' if n == 1 else 's')


def _quoted_list(names):
    names = ["'" + n + "'" for n in names]
    if len(names) == 1:
        return names[0]
    return ', '.join(names[:-1]) + (',' if len(names) > 2 else '') + ' and ' + names[-1]


# The arguments of a namedtuple's __new__(_cls, f1, f2, ...) bound as CPython
# binds them, with its TypeError messages.
def _bind_fields(qualname, fields, defaults, args, kwargs):
    n = len(fields)
    if len(args) > n:
        lo = n - len(defaults)
        takes = str(n + 1) if not defaults else 'from ' + str(lo + 1) + ' to ' + str(n + 1)
        raise TypeError(qualname + '() takes ' + takes + ' positional argument' + ('' if n == 0 else 's')
                        + ' but ' + str(len(args) + 1) + (' was' if len(args) == 0 else ' were') + ' given')
    values = list(args)
    for name in kwargs:
        if name not in fields:
            raise TypeError(qualname + "() got an unexpected keyword argument '" + name + "'")
        if fields.index(name) < len(args):
            raise TypeError(qualname + "() got multiple values for argument '" + name + "'")
    missing = []
    for i in range(len(args), n):
        name = fields[i]
        if name in kwargs:
            values.append(kwargs[name])
        elif i >= n - len(defaults):
            values.append(defaults[i - (n - len(defaults))])
        else:
            missing.append(name)
    if missing:
        raise TypeError(qualname + '() missing ' + _plural(len(missing), 'required positional argument') + ': '
                        + _quoted_list(missing))
    return values


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    # A tuple subclass whose fields are read-only properties, as CPython's.
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    field_names = list(map(str, field_names))
    typename = str(typename)
    if rename:
        seen = set()
        for index, name in enumerate(field_names):
            if (not name.isidentifier() or _iskeyword(name) or name.startswith('_') or name in seen):
                field_names[index] = '_' + str(index)
            seen.add(name)
    for name in [typename] + field_names:
        if type(name) is not str:
            raise TypeError('Type names and field names must be strings')
        if not name.isidentifier():
            raise ValueError('Type names and field names must be valid identifiers: ' + repr(name))
        if _iskeyword(name):
            raise ValueError('Type names and field names cannot be a keyword: ' + repr(name))
    seen = set()
    for name in field_names:
        if name.startswith('_') and not rename:
            raise ValueError('Field names cannot start with an underscore: ' + repr(name))
        if name in seen:
            raise ValueError('Encountered duplicate field name: ' + repr(name))
        seen.add(name)
    fields = tuple(field_names)
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(fields):
            raise TypeError('Got more default values than field names')
    else:
        defaults = ()
    qualname = typename + '.__new__'

    def __new__(_cls, *args, **kwargs):
        return tuple.__new__(_cls, _bind_fields(qualname, fields, defaults, args, kwargs))

    @classmethod
    def _make(cls, iterable):
        result = tuple.__new__(cls, iterable)
        if len(result) != len(fields):
            raise TypeError('Expected ' + str(len(fields)) + ' arguments, got ' + str(len(result)))
        return result

    def _replace(self, **kwds):
        result = self._make([kwds.pop(name) if name in kwds else value for name, value in zip(fields, self)])
        if kwds:
            raise ValueError('Got unexpected field names: ' + repr(list(kwds)))
        return result

    def __repr__(self):
        return (self.__class__.__name__ + '('
                + ', '.join(name + '=' + repr(value) for name, value in zip(fields, self)) + ')')

    def _asdict(self):
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        return tuple(self)

    namespace = {
        '__doc__': typename + '(' + ', '.join(fields) + ')',
        '__slots__': (),
        '_fields': fields,
        '_field_defaults': dict(zip(fields[len(fields) - len(defaults):], defaults)) if defaults else {},
        '__new__': __new__,
        '_make': _make,
        '_replace': _replace,
        '__repr__': __repr__,
        '_asdict': _asdict,
        '__getnewargs__': __getnewargs__,
        '__match_args__': fields,
    }
    for index, name in enumerate(fields):
        namespace[name] = _field_accessor(index)
    result = type(typename, (tuple,), namespace)
    # As CPython's: the class belongs to the module that called namedtuple().
    result.__module__ = module if module is not None else _frames.module(1)
    result.__qualname__ = typename
    return result
