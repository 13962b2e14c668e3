# collections: the containers model code uses, as CPython's behave.
# OrderedDict is the interpreter's (a dict that prints and types as one);
# defaultdict, Counter, deque and namedtuple are classes written here;
# as Kiln cannot subclass built-in types, they are not instances of dict,
# list or tuple (isinstance differs), but index, iterate, compare and print
# like CPython's.

from _collections import OrderedDict


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

    def index(self, x):
        return self._items.index(x)

    def remove(self, x):
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


def namedtuple(typename, field_names, defaults=None, rename=False, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    fields = tuple(field_names)
    defaults = tuple(defaults) if defaults is not None else ()

    class _NamedTuple:
        _fields = fields
        _field_defaults = dict(zip(fields[len(fields) - len(defaults):], defaults))

        def __init__(self, *args, **kwargs):
            values = list(args)
            for name in fields[len(values):]:
                if name in kwargs:
                    values.append(kwargs[name])
                elif name in self._field_defaults:
                    values.append(self._field_defaults[name])
                else:
                    raise TypeError(typename + "() missing required argument: '" + name + "'")
            if len(values) > len(fields):
                raise TypeError(typename + '() takes ' + str(len(fields)) + ' positional arguments but '
                                + str(len(values)) + ' were given')
            object.__setattr__(self, '_values', tuple(values))
            for name, value in zip(fields, values):
                object.__setattr__(self, name, value)

        def __getitem__(self, i):
            return self._values[i]

        def __iter__(self):
            return iter(self._values)

        def __len__(self):
            return len(self._values)

        def __eq__(self, other):
            if hasattr(other, '_values'):
                return self._values == other._values
            return self._values == other

        def __hash__(self):
            return hash(self._values)

        def _asdict(self):
            return dict(zip(fields, self._values))

        def _replace(self, **kwargs):
            return type(self)(*[kwargs.get(name, value) for name, value in zip(fields, self._values)])

        def __repr__(self):
            return typename + '(' + ', '.join(n + '=' + repr(v) for n, v in zip(fields, self._values)) + ')'

    _NamedTuple.__name__ = typename
    return _NamedTuple
