a = []
b = [a]
a.append(b)
print(a, b)
d = {'a': a}
a.append(d)
print(d)
