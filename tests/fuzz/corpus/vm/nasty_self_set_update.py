s = {1, 2}
s.update(s)
s |= s
s -= s
print(s)
