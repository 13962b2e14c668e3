d = {}
for i in range(20):
    d[str(i)] = i
for i in range(0, 20, 2):
    del d[str