d = {1: 2, 3: 4}
for k in d:
    d[k + 10] = 1
