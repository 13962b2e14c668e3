d = {i: i for i in range(10)}
for k, v in d.items():
    d.pop(k)
    d[k * 100] = v
