# random: CPython 3.11's random module over the same Mersenne Twister
# (_random, core/lang/stdlib_random.cpp). The algorithms below are CPython's
# own (randbelow by rejection on getrandbits, Fisher-Yates shuffle, the
# two-method sample, gauss's cached pair), so a seeded script draws the same
# values as under CPython. As in CPython, the module's functions are bound
# methods of one hidden instance (it draws from _random's generator 0); each
# random.Random(seed) owns a twister of its own.
from bisect import bisect_right as _bisect
import math
import _random


# CPython 3.11 still takes integral floats here (with a DeprecationWarning).
def _index(v, which):
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        if v != int(v):
            raise ValueError('non-integer ' + which + ' for randrange()')
        return int(v)
    raise TypeError("'" + type(v).__name__ + "' object cannot be interpreted as an integer")


class Random:
    def __init__(self, x=None):
        self._gen = _random.new_generator()
        self.seed(x)

    def seed(self, a=None, version=2):
        _random.seed(a, self._gen)
        self.gauss_next = None

    def getstate(self):
        # CPython's layout: (VERSION 3, the twister's 625 ints, gauss's cached value).
        return (3, _random.getstate(self._gen), self.gauss_next)

    def setstate(self, state):
        version = state[0]
        if version != 3:
            raise ValueError('state with version %s passed to Random.setstate() of version 3' % (version,))
        _random.setstate(tuple(state[1]), self._gen)
        self.gauss_next = state[2]

    def random(self):
        return _random.random(self._gen)

    def getrandbits(self, k):
        return _random.getrandbits(k, self._gen)

    def _randbelow(self, n):
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        istart = _index(start, 'arg 1')
        if stop is None:
            if step != 1:
                raise TypeError('Missing a non-None stop argument')
            if istart > 0:
                return self._randbelow(istart)
            raise ValueError('empty range for randrange()')
        istop = _index(stop, 'stop')
        width = istop - istart
        istep = _index(step, 'step')
        if istep == 1:
            if width > 0:
                return istart + self._randbelow(width)
            raise ValueError('empty range for randrange() (%d, %d, %d)' % (istart, istop, width))
        if istep > 0:
            n = (width + istep - 1) // istep
        elif istep < 0:
            n = (width + istep + 1) // istep
        else:
            raise ValueError('zero step for randrange()')
        if n <= 0:
            raise ValueError('empty range for randrange()')
        return istart + istep * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError('Cannot choose from an empty sequence')
        return seq[self._randbelow(len(seq))]

    # CPython's choices: without weights one random() per pick scaled by n; with
    # weights a bisect into the running totals (summed left to right, as
    # itertools.accumulate does), so seeded picks match draw for draw.
    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        n = len(population)
        if cum_weights is None:
            if weights is None:
                fn = float(n)
                return [population[math.floor(self.random() * fn)] for _ in range(k)]
            if isinstance(weights, int):
                raise TypeError('The number of choices must be a keyword argument: k=' + str(weights))
            cum_weights = []
            total = None
            for w in weights:
                total = w if total is None else total + w
                cum_weights.append(total)
        elif weights is not None:
            raise TypeError('Cannot specify both weights and cumulative weights')
        if len(cum_weights) != n:
            raise ValueError('The number of weights does not match the population')
        total = cum_weights[-1] + 0.0
        if total <= 0.0:
            raise ValueError('Total of weights must be greater than zero')
        if not math.isfinite(total):
            raise ValueError('Total of weights must be finite')
        hi = n - 1
        return [population[_bisect(cum_weights, self.random() * total, 0, hi)] for _ in range(k)]

    def shuffle(self, x):
        for i in reversed(range(1, len(x))):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k):
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError('Sample larger than population or is negative')
        result = [None] * k
        setsize = 21
        if k > 5:
            setsize += 4 ** math.ceil(math.log(k * 3, 4))
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = self._randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            for i in range(k):
                j = self._randbelow(n)
                while j in selected:
                    j = self._randbelow(n)
                selected.add(j)
                result[i] = population[j]
        return result

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def gauss(self, mu=0.0, sigma=1.0):
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = self.random() * (2.0 * math.pi)
            g2rad = math.sqrt(-2.0 * math.log(1.0 - self.random()))
            z = math.cos(x2pi) * g2rad
            self.gauss_next = math.sin(x2pi) * g2rad
        return mu + z * sigma

    def normalvariate(self, mu=0.0, sigma=1.0):
        magic = 4 * math.exp(-0.5) / math.sqrt(2.0)
        while True:
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = magic * (u1 - 0.5) / u2
            zz = z * z / 4.0
            if zz <= -math.log(u2):
                break
        return mu + z * sigma

    def expovariate(self, lambd):
        return -math.log(1.0 - self.random()) / lambd


# The module-level instance draws from generator 0 and is not re-seeded at
# import, so scripts that never call seed() keep the clock-seeded stream.
class _ModuleRandom(Random):
    def __init__(self):
        self._gen = 0
        self.gauss_next = None


_inst = _ModuleRandom()
seed, random, getrandbits = _inst.seed, _inst.random, _inst.getrandbits
getstate, setstate = _inst.getstate, _inst.setstate
randrange, randint, choice, shuffle = _inst.randrange, _inst.randint, _inst.choice, _inst.shuffle
choices = _inst.choices
sample, uniform, gauss = _inst.sample, _inst.uniform, _inst.gauss
normalvariate, expovariate = _inst.normalvariate, _inst.expovariate
