# statistics and string: averages, spreads and modes of ints and floats
# (ints stay exact), their errors, and string's constants.
import statistics
import string
from statistics import StatisticsError


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', e)


ints = [2, 4, 4, 4, 5, 5, 7, 9]
floats = [1.5, 2.5, 2.5, 2.75, 3.25, 4.75]
print(statistics.mean(ints), statistics.mean([1, 2, 3, 4]), statistics.mean(floats), statistics.mean([1, 2.5]))
print(statistics.fmean(ints), statistics.fmean(floats), statistics.fmean([1, 2, 3], weights=[3, 2, 1]))
print(statistics.median(ints), statistics.median([3, 1, 2]), statistics.median(floats), statistics.median([1, 3]))
print(statistics.median_low([1, 3, 5, 7]), statistics.median_high([1, 3, 5, 7]), statistics.median_low([4, 1, 2]))
print(statistics.mode([1, 1, 2, 3, 3, 3]), statistics.mode(['red', 'blue', 'blue', 'red']), statistics.mode('aabbbc'))
print(statistics.multimode('aabbbcccc'), statistics.multimode([1, 1, 2, 2]), statistics.multimode([]))
print(statistics.variance(ints), statistics.variance([1, 2, 3]), statistics.variance(floats))
print(statistics.pvariance(ints), statistics.pvariance([1, 2, 3, 4]), statistics.pvariance(floats))
print(statistics.stdev(ints), statistics.stdev([1, 2, 3, 4]), statistics.stdev(floats))
print(statistics.pstdev(ints), statistics.pstdev(floats), statistics.pstdev([5]))
print(statistics.variance(floats, statistics.mean(floats)), statistics.pvariance([1.0, 2.0, 4.0], 2.0))
print(statistics.geometric_mean([54, 24, 36]), statistics.harmonic_mean([2, 4, 4]), statistics.harmonic_mean([5]))
print(statistics.quantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), statistics.quantiles(ints, n=10))
print(statistics.quantiles([1, 2, 3, 4, 5], n=4, method='inclusive'))
print(round(statistics.mean([0.1] * 10), 12), statistics.mean(range(1, 101)), statistics.median(range(10)))
print(issubclass(StatisticsError, ValueError))
for f in (statistics.mean, statistics.fmean, statistics.median, statistics.median_low, statistics.median_high,
          statistics.mode, statistics.variance, statistics.pvariance, statistics.stdev, statistics.pstdev):
    show(lambda: f([]))
show(lambda: statistics.variance([1]))
show(lambda: statistics.stdev([2.5]))
show(lambda: statistics.quantiles([1]))

print(string.ascii_letters)
print(string.ascii_lowercase, string.ascii_uppercase, string.digits, string.hexdigits, string.octdigits)
print(string.punctuation, len(string.punctuation))
print(repr(string.whitespace), repr(string.printable), len(string.printable))
print(string.capwords('hello  wide   world'), string.capwords('a-b c-d', '-'))
print(all(c in string.ascii_letters + string.digits for c in 'abcXYZ019'), '_' in string.punctuation)
