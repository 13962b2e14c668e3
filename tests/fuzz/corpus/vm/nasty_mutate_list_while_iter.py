a = [1, 2, 3, 4]
for x in a:
    a.remove(x)
print(a)
b = [1, 2, 3]
for i, x in enumerate(b):
    del b[0]
print(b)
