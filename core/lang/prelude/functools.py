# functools: partial, reduce, wraps, lru_cache/cache (a dict keyed by the
# positional and keyword arguments), cmp_to_key and total_ordering.

_MISSING = object()


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError('the first argument must be callable')
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        merged = dict(self.keywords)
        merged.update(keywords)
        return self.func(*self.args, *args, **merged)


def reduce(function, iterable, initial=_MISSING):
    it = iter(iterable)
    if initial is _MISSING:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError('reduce() of empty iterable with no initial value')
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__', '__annotations__')
WRAPPER_UPDATES = ('__dict__',)


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            continue
        setattr(wrapper, attr, value)
    for attr in updated:
        getattr(wrapper, attr).update(getattr(wrapped, attr, {}))
    # Set last, so a __wrapped__ copied from wrapped's __dict__ is replaced.
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    def decorator(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return decorator


class _CacheInfo:
    def __init__(self, hits, misses, maxsize, currsize):
        self.hits = hits
        self.misses = misses
        self.maxsize = maxsize
        self.currsize = currsize

    def __repr__(self):
        return 'CacheInfo(hits={}, misses={}, maxsize={}, currsize={})'.format(
            self.hits, self.misses, self.maxsize, self.currsize)


class _Cached:
    def __init__(self, func, maxsize):
        self.func = func
        self.maxsize = maxsize
        self.cache = {}
        self.hits = 0
        self.misses = 0

    def __call__(self, *args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        if key in self.cache:
            self.hits += 1
            return self.cache[key]
        self.misses += 1
        value = self.func(*args, **kwargs)
        if self.maxsize is None or self.maxsize > 0:
            if self.maxsize is not None and len(self.cache) >= self.maxsize:
                del self.cache[next(iter(self.cache))]
            self.cache[key] = value
        return value

    def cache_info(self):
        return _CacheInfo(self.hits, self.misses, self.maxsize, len(self.cache))

    def cache_clear(self):
        self.cache = {}
        self.hits = 0
        self.misses = 0


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize):
        return _Cached(maxsize, 128)

    def decorator(func):
        return _Cached(func, maxsize)
    return decorator


def cache(func):
    return _Cached(func, None)


def cmp_to_key(mycmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0
    return K


def total_ordering(cls):
    return cls
