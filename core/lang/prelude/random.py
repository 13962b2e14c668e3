# random: CPython 3.11's random module over the same Mersenne Twister
# (_random, core/lang/stdlib_random.cpp). The algorithms below are CPython's
# own (randbelow by rejection on getrandbits, Fisher-Yates shuffle, the
# two-method sample, gauss's cached pair), so a seeded script draws the same
# values as under CPython.
import math
import _random

random = _random.random
getrandbits = _random.getrandbits

_gauss_next = [None]


def seed(a=None, version=2):
    _random.seed(a)
    _gauss_next[0] = None


def _randbelow(n):
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


# CPython 3.11 still takes integral floats here (with a DeprecationWarning).
def _index(v, which):
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        if v != int(v):
            raise ValueError('non-integer ' + which + ' for randrange()')
        return int(v)
    raise TypeError("'" + type(v).__name__ + "' object cannot be interpreted as an integer")


def randrange(start, stop=None, step=1):
    istart = _index(start, 'arg 1')
    if stop is None:
        if step != 1:
            raise TypeError('Missing a non-None stop argument')
        if istart > 0:
            return _randbelow(istart)
        raise ValueError('empty range for randrange()')
    istop = _index(stop, 'stop')
    width = istop - istart
    istep = _index(step, 'step')
    if istep == 1:
        if width > 0:
            return istart + _randbelow(width)
        raise ValueError('empty range for randrange() (%d, %d, %d)' % (istart, istop, width))
    if istep > 0:
        n = (width + istep - 1) // istep
    elif istep < 0:
        n = (width + istep + 1) // istep
    else:
        raise ValueError('zero step for randrange()')
    if n <= 0:
        raise ValueError('empty range for randrange()')
    return istart + istep * _randbelow(n)


def randint(a, b):
    return randrange(a, b + 1)


def choice(seq):
    if not len(seq):
        raise IndexError('Cannot choose from an empty sequence')
    return seq[_randbelow(len(seq))]


def shuffle(x):
    for i in reversed(range(1, len(x))):
        j = _randbelow(i + 1)
        x[i], x[j] = x[j], x[i]


def sample(population, k):
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
            j = _randbelow(n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = set()
        for i in range(k):
            j = _randbelow(n)
            while j in selected:
                j = _randbelow(n)
            selected.add(j)
            result[i] = population[j]
    return result


def uniform(a, b):
    return a + (b - a) * random()


def gauss(mu=0.0, sigma=1.0):
    z = _gauss_next[0]
    _gauss_next[0] = None
    if z is None:
        x2pi = random() * (2.0 * math.pi)
        g2rad = math.sqrt(-2.0 * math.log(1.0 - random()))
        z = math.cos(x2pi) * g2rad
        _gauss_next[0] = math.sin(x2pi) * g2rad
    return mu + z * sigma


def normalvariate(mu=0.0, sigma=1.0):
    magic = 4 * math.exp(-0.5) / math.sqrt(2.0)
    while True:
        u1 = random()
        u2 = 1.0 - random()
        z = magic * (u1 - 0.5) / u2
        zz = z * z / 4.0
        if zz <= -math.log(u2):
            break
    return mu + z * sigma


def expovariate(lambd):
    return -math.log(1.0 - random()) / lambd
