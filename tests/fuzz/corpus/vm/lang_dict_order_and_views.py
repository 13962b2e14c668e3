d = {}
for i in range(20):
    d[str(i)] = i
for i in range(0, 20, 2):
    del d[str(i)]
d["new"] = 0
print(list(d), list(d.values())[:3], list(d.items())[-1], len(d))
k = d.keys()
d["later"] = 1
print("later" in k, len(k))
print({**d, "x": 1}["x"], dict(sorted(d.items())[:2]))
