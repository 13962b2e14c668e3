# itertools: CPython's iterator building blocks, as generator functions with
# CPython's documented equivalents (so orders and edge cases agree).


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def cycle(iterable):
    saved = []
    for element in iterable:
        yield element
        saved.append(element)
    while saved:
        for element in saved:
            yield element


def repeat(obj, times=None):
    if times is None:
        while True:
            yield obj
    else:
        for _ in range(times):
            yield obj


def accumulate(iterable, func=None, initial=None):
    it = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(it)
        except StopIteration:
            return
    yield total
    for element in it:
        total = total + element if func is None else func(total, element)
        yield total


def _chained(iterables):
    for it in iterables:
        for element in it:
            yield element


# A class, so that chain.from_iterable exists.
class chain:
    def __init__(self, *iterables):
        self._it = _chained(iterables)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    @staticmethod
    def from_iterable(iterables):
        return _chained(iterables)


def compress(data, selectors):
    for d, s in zip(data, selectors):
        if s:
            yield d


def dropwhile(predicate, iterable):
    it = iter(iterable)
    for x in it:
        if not predicate(x):
            yield x
            break
    for x in it:
        yield x


def takewhile(predicate, iterable):
    for x in iterable:
        if predicate(x):
            yield x
        else:
            break


def filterfalse(predicate, iterable):
    for x in iterable:
        if not (bool(x) if predicate is None else predicate(x)):
            yield x


def islice(iterable, *args):
    s = slice(*args)
    start = s.start or 0
    stop = s.stop
    step = s.step or 1
    if start < 0 or (stop is not None and stop < 0) or step <= 0:
        raise ValueError('Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.')
    i = 0
    nexti = start
    for element in iterable:
        if stop is not None and i >= stop:
            return
        if i == nexti:
            yield element
            nexti += step
        i += 1


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def tee(iterable, n=2):
    items = list(iterable)
    return tuple(iter(items) for _ in range(n))


def zip_longest(*args, fillvalue=None):
    lists = [list(a) for a in args]
    longest = max((len(x) for x in lists), default=0)
    for i in range(longest):
        yield tuple(x[i] if i < len(x) else fillvalue for x in lists)


def pairwise(iterable):
    it = iter(iterable)
    try:
        a = next(it)
    except StopIteration:
        return
    for b in it:
        yield (a, b)
        a = b


def groupby(iterable, key=None):
    group = []
    current = None
    first = True
    for element in iterable:
        k = element if key is None else key(element)
        if first:
            current = k
            first = False
        elif k != current:
            yield current, iter(group)
            group = []
            current = k
        group.append(element)
    if not first:
        yield current, iter(group)


def product(*iterables, repeat=1):
    pools = [tuple(pool) for pool in iterables] * repeat
    result = [[]]
    for pool in pools:
        result = [x + [y] for x in result for y in pool]
    for prod in result:
        yield tuple(prod)


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    for indices in product(range(n), repeat=r):
        if len(set(indices)) == r:
            yield tuple(pool[i] for i in indices)


def combinations(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    for indices in permutations(range(n), r):
        if sorted(indices) == list(indices):
            yield tuple(pool[i] for i in indices)


def combinations_with_replacement(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    for indices in product(range(n), repeat=r):
        if sorted(indices) == list(indices):
            yield tuple(pool[i] for i in indices)
