a = list(range(10))
it = iter(a)
next(it)
a.clear()
print(list(it))
b = [1, 2]
r = reversed(b)
b.clear()
print(list(r))
