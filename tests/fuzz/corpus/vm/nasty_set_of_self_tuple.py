a = []
t = (a,)
a.append(t)
print(t, a)
