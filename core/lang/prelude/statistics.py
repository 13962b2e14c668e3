# statistics: CPython's averages and spreads. Ints are summed exactly and an
# integral int result stays an int, as CPython's exact-fraction sums give;
# floats go through math.fsum (CPython sums them as exact fractions, so a
# float result may differ from CPython's in the last bit).

import math


class StatisticsError(ValueError):
    pass


def _data(data):
    return list(data)


def _all_ints(data):
    for x in data:
        if not isinstance(x, int):
            return False
    return True


# Round a ratio of ints the way CPython's exact Fraction converts: an int
# when exact, else a float.
def _int_ratio(num, den):
    if num % den == 0:
        return num // den
    return num / den


def mean(data):
    data = _data(data)
    n = len(data)
    if n < 1:
        raise StatisticsError('mean requires at least one data point')
    if _all_ints(data):
        return _int_ratio(sum(data), n)
    return math.fsum(data) / n


def fmean(data, weights=None):
    data = _data(data)
    if weights is not None:
        weights = list(weights)
        if len(weights) != len(data):
            raise StatisticsError('data and weights must be the same length')
        total = math.fsum([w for w in weights])
        if not total:
            raise StatisticsError('sum of weights must be non-zero')
        return math.fsum([x * w for x, w in zip(data, weights)]) / total
    n = len(data)
    if n < 1:
        raise StatisticsError('fmean requires at least one data point')
    return math.fsum(data) / n


def geometric_mean(data):
    data = _data(data)
    if not data:
        raise StatisticsError('geometric_mean requires a non-empty dataset containing positive numbers')
    for x in data:
        if x <= 0:
            raise StatisticsError('geometric_mean requires a non-empty dataset containing positive numbers')
    return math.exp(fmean([math.log(x) for x in data]))


def harmonic_mean(data):
    data = _data(data)
    if not data:
        raise StatisticsError('harmonic_mean requires at least one data point')
    for x in data:
        if x < 0:
            raise StatisticsError('harmonic mean does not support negative values')
        if x == 0:
            return 0
    if len(data) == 1:
        return data[0]
    return len(data) / math.fsum([1 / x for x in data])


def median(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    if n % 2 == 1:
        return data[n // 2]
    i = n // 2
    return (data[i - 1] + data[i]) / 2


def median_low(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError('no median for empty data')
    return data[n // 2] if n % 2 == 1 else data[n // 2 - 1]


def median_high(data):
    data = sorted(data)
    if len(data) == 0:
        raise StatisticsError('no median for empty data')
    return data[len(data) // 2]


def _counts(data):
    counts = {}
    for x in data:
        counts[x] = counts.get(x, 0) + 1
    return counts


def mode(data):
    counts = _counts(data)
    if not counts:
        raise StatisticsError('no mode for empty data')
    best = None
    best_count = 0
    for x, c in counts.items():
        if c > best_count:
            best = x
            best_count = c
    return best


def multimode(data):
    counts = _counts(data)
    if not counts:
        return []
    top = max(counts.values())
    return [x for x, c in counts.items() if c == top]


# The sum of squared deviations and the value type, as (ss, exact_num):
# for ints exact_num is n*ss, an exact integer; for floats it is None.
def _ss(data, c):
    n = len(data)
    if c is not None:
        squares = [(x - c) * (x - c) for x in data]
        if _all_ints(squares):
            return None, n * sum(squares)
        return math.fsum(squares), None
    if _all_ints(data):
        sx = sum(data)
        return None, n * sum([x * x for x in data]) - sx * sx
    c = math.fsum(data) / n
    dev = [x - c for x in data]
    ss = math.fsum([d * d for d in dev]) - math.fsum(dev) ** 2 / n
    return ss, None


def _var(data, xbar, dof, name, least):
    data = _data(data)
    n = len(data)
    if n < least:
        raise StatisticsError(name + ' requires at least ' + ('two data points' if least == 2 else 'one data point'))
    ss, exact = _ss(data, xbar)
    if exact is not None:
        return _int_ratio(exact, n * (n - dof)), exact, n * (n - dof)
    return ss / (n - dof), None, None


def variance(data, xbar=None):
    return _var(data, xbar, 1, 'variance', 2)[0]


def pvariance(data, mu=None):
    return _var(data, mu, 0, 'pvariance', 1)[0]


def _sqrt(v, num, den):
    if num is not None:
        return math.sqrt(num / den)
    return math.sqrt(v)


def stdev(data, xbar=None):
    v, num, den = _var(data, xbar, 1, 'stdev', 2)
    return _sqrt(v, num, den)


def pstdev(data, mu=None):
    v, num, den = _var(data, mu, 0, 'pstdev', 1)
    return _sqrt(v, num, den)


def quantiles(data, *, n=4, method='exclusive'):
    if n < 1:
        raise StatisticsError('n must be at least 1')
    data = sorted(data)
    ld = len(data)
    if ld < 2:
        raise StatisticsError('must have at least two data points')
    if method == 'inclusive':
        m = ld - 1
        result = []
        for i in range(1, n):
            j, delta = divmod(i * m, n)
            result.append((data[j] * (n - delta) + data[j + 1] * delta) / n)
        return result
    if method == 'exclusive':
        m = ld + 1
        result = []
        for i in range(1, n):
            j = i * m // n
            j = 1 if j < 1 else (ld - 1 if j > ld - 1 else j)
            delta = i * m - j * n
            result.append((data[j - 1] * (n - delta) + data[j] * delta) / n)
        return result
    raise ValueError('Unknown method: ' + repr(method))
