# dict: insertion order, methods, iteration, comprehension, errors.
d = {"b": 2, "a": 1}
d["c"] = 3
d["b"] = 20
print(d, len(d), d["a"], d.get("z"), d.get("z", 0), "c" in d, "q" not in d)
print(list(d.keys()), list(d.values()), list(d.items()))
for k in d:
    print(k, d[k])
for k, v in d.items():
    print(k, "->", v)
print(d.setdefault("a", 100), d.setdefault("e", 5), d)
d.update({"a": -1, "f": 6})
d.update(g=7)
print(d)
print(d.pop("e"), d.pop("zz", "none"), d)
del d["f"]
print(d, sorted(d), sorted(d.items(), key=lambda kv: kv[1]))
sq = {i: i * i for i in range(5)}
print(sq, {k: v for k, v in sq.items() if v % 2 == 0})
counts = {}
for w in "a b a c b a".split():
    counts[w] = counts.get(w, 0) + 1
print(counts)
nested = {"x": {"y": [1, 2]}}
nested["x"]["y"].append(3)
print(nested)
print(dict(a=1, b=2), dict([("k", 1), ("j", 2)]), dict(zip(["p", "q"], [1, 2])))
keys = {1: "int", 2.5: "float", (1, 2): "tuple", True: "bool?"}
print(keys)
try:
    print(d["missing"])
except KeyError as e:
    print("KeyError", e)
copy = dict(d)
copy["new"] = 1
print(len(d), len(copy))
d.clear()
print(d)
