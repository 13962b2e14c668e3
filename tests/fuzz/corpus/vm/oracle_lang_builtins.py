# The builtins of the subset.
xs = [4, -2, 7, 0]
print(len(xs), len("abc"), len({}), len(range(3, 10, 2)), len((1,)))
print(min(xs), max(xs), min(3, 1, 2), max("apple", "pear"), max(xs, key=abs))
print(abs(-3), abs(-3.5), abs(0), sum(xs), sum([0.5, 0.25]), sum([[1], [2]], []), sum(range(101)), sum(xs, 10))
print(round(3.14159, 2), round(-1.5), round(2.5), round(1e-9, 3))
print(int(7.9), int("-12"), float("1e-3"), float(2), bool(0.0), str(12.50), list("ab"), tuple([1]), dict(a=1))
print(set([3, 1, 3]) == {1, 3}, len(set("hello")), sorted(set("hello")))
print(list(zip([1, 2, 3], ["a", "b"])), list(zip()), list(zip(range(2), range(2), range(2))))
print(list(enumerate("xyz")), list(enumerate([5, 6], 10)))
print(list(reversed([1, 2, 3])), list(reversed(range(4))), list(reversed("abc")), list(reversed((1, 2))))
print(sorted([3, 1, 2]), sorted("bca"), sorted([3, 1, 2], reverse=True), sorted({"b": 1, "a": 2}))
print(isinstance(1, int), isinstance(True, int), isinstance(1.0, int), isinstance("s", str), isinstance([], list),
      isinstance((), tuple), isinstance({}, dict), isinstance(None, type(None)), isinstance(1, (str, int)))
print(type(1) == int, type(1.5) is float, type([]) is list, type("x") == str, type(True) is bool)
print(any([0, "", None]), any([0, 1]), all([1, "a", [0]]), all([]), any([]), all(x > -5 for x in xs))
print(list(map(str, [1, 2])), list(map(abs, xs)), list(map(lambda a, b: a * b, [1, 2, 3], [4, 5, 6])))
print(ord("z"), chr(65), chr(0x263A) == "\u263a")
print(list(range(0)), list(range(-3)), list(range(1, -5, -2)), range(5)[2], range(10)[-1], 3 in range(5))
print(str([1, "a", 2.0, None, True]), str((1, "b")), str({"k": [1]}), repr([1.5]), str(()), str((1,)))
print(int(True) + int(False), float(True), str(False), bool("False"))
print(getattr([], "append") is not None, hasattr([], "append"), hasattr([], "nope"))
print(print is not None, len is len)
fs = [len, sum, max]
print([f([1, 2, 3]) for f in fs])
try:
    len(5)
except TypeError as e:
    print("TypeError:", e)
try:
    int("1.5")
except ValueError as e:
    print("ValueError:", e)
try:
    max([])
except ValueError as e:
    print("ValueError:", e)
try:
    float("x")
except ValueError as e:
    print("ValueError:", e)
try:
    chr(-1)
except ValueError as e:
    print("ValueError:", e)
