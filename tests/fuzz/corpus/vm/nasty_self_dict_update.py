d = {1: 2}
d.update(d)
d.update({k: v for k, v in d.items()})
print(d)
