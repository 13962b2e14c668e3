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
print(d.setdefaul