a = []
a.append(a)
print(a in a, [a] in a)
