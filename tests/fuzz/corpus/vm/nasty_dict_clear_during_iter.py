d = {1: 2, 3: 4}
for k in d.values():
    d.clear()
print(d)
