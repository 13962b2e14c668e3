# collections, itertools and functools as CPython's: defaultdict, Counter, deque,
# namedtuple, OrderedDict into nn.Sequential, iterator building blocks, reduce,
# partial, lru_cache and cmp_to_key.
from collections import OrderedDict, defaultdict, Counter, deque, namedtuple
import itertools
import functools
import torch.nn as nn
d = defaultdict(list)
d['a'].append(1); d['b'].append(2); d['a'].append(3)
print(d, dict(d), len(d), 'a' in d, sorted(d.items()))
c = Counter('abracadabra')
print(c, c.most_common(2), c['z'], c['a'])
c.update(['a', 'z'])
print(c['a'], c['z'], sum(c.values()))
q = deque([1, 2, 3], maxlen=3)
q.append(4); q.appendleft(0)
print(q, q.popleft(), len(q), list(q))
P = namedtuple('Point', ['x', 'y'])
p = P(1, y=2)
print(p, p.x, p[1], tuple(p) == (1, 2), p._asdict(), p._replace(x=5))
x, y = p
print(x + y)
od = OrderedDict([('fc1', nn.Linear(2, 3)), ('act', nn.ReLU()), ('fc2', nn.Linear(3, 1))])
print(nn.Sequential(od))
print(list(itertools.product([1, 2], 'ab')), list(itertools.chain([1], [2, 3])), list(itertools.islice(itertools.count(5), 3)))
print(list(itertools.combinations(range(4), 2)), list(itertools.permutations('abc', 2))[:4], list(itertools.accumulate([1, 2, 3])))
print(list(itertools.zip_longest([1, 2], [3], fillvalue=0)), [(k, list(g)) for k, g in itertools.groupby('aabbbc')])
print(list(itertools.chain.from_iterable([[1, 2], [3]])), list(itertools.repeat(7, 3)), list(itertools.pairwise([1, 2, 3])))
print(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]), functools.partial(pow, 2)(10))
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), fib.cache_info())
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
