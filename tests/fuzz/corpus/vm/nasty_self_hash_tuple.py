a = []
t = (a,)
a.append(t)
print(hash(t))
