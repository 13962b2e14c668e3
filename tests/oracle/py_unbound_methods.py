# Unbound methods of built-in types used as plain functions.
print(list(map(str.upper, ["a", "bc"])))
lines = ["  x ", "y  ", " z"]
print(list(map(str.strip, lines)))
print(str.join(",", ["p", "q", "r"]))
print(str.lower("ABC"), str.split("a b  c"), str.replace("aaa", "a", "b", 2))
words = ["banana", "Apple", "cherry", "apple"]
print(sorted(words, key=str.lower))
print(sorted(words, key=len, reverse=True))
l = [3]
list.append(l, 1)
list.extend(l, [7, 8])
print(l, list.index(l, 7), list.count(l, 3))
d = {"a": 1}
print(dict.get(d, "a"), dict.get(d, "z", -1), dict.keys(d), list(dict.items(d)))
dict.update(d, b=2)
print(d, dict.pop(d, "a"), d)
print(dict.fromkeys("ab", 0), dict.fromkeys([1, 2]))
print(float.fromhex("0x1p-2"), float.fromhex("-0x1.8p+1"), float.fromhex("0x1.921fb54442d18p+1"))
print((0.25).hex(), (3.0).hex(), (-0.1).hex(), (0.0).hex(), float.hex(1.5))
print((3.0).is_integer(), (3.5).is_integer(), float.is_integer(2.0))
print((10).bit_length(), int.bit_length(255), (-8).bit_length(), (0).bit_length())
print(set.union({1}, {2}), tuple.count((1, 1, 2), 1), int.conjugate(5))
print(str.__name__, str.upper.__name__ if hasattr(str.upper, "__name__") else "?")
f = str.upper
print(f("q"), callable(f))
print(list(map(int.bit_length, [1, 2, 1024])))
print(list(filter(str.isdigit, ["1", "a", "22"])))
for bad in [lambda: str.upper(5), lambda: str.upper(), lambda: list.append((1,), 2),
            lambda: dict.get([], 1), lambda: float.fromhex("zz"), lambda: float.is_integer(3)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
