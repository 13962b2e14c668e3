d = {1: 2, 3: 4}
try:
    for k in d:
        del d[k]
        d[k + 100] = 0
except RuntimeError as e:
    print(e)
print(d)
