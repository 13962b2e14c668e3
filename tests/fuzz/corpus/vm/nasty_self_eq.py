a = [1]
a.append(a)
print(a == a)
b = [1]
b.append(b)
print(a == b)
