a = []
a.append(a)
a.append(a)
a.sort()
print(len(a))
