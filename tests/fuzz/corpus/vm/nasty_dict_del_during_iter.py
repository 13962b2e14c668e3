d = {1: 2, 3: 4, 5: 6}
for k in d:
    del d[k]
