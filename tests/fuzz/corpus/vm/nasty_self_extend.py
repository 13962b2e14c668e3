a = [1, 2]
a.extend(a)
a += a
a[1:1] = a
print(a)
