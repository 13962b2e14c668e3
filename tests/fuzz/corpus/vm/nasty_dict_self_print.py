d = {}
d['self'] = d
print(d)
d2 = {1: [d]}
print(d2)
