a = [5, 3, 8, 1]
a.sort()
print(a)
a.sort(key=lambda x: -x, reverse=True)
print(a)
a[1:3] = [9, 9, 9]
print(a)
a[::2] = [0, 0, 0]
print(a)
try:
    a[::2] = [1]
except ValueError as e:
    print(e)
del a[::2]
print(a)
a[5:] = range(3)
print(a)
a += 'xy'
print(a)
a *= 2
print(a)
a *= 0
print(a)
b = [[0] * 3 for _ in range(3)]
b[1][1] = 5
print(b)
c = [1, 2, 3]
c[-1:0] = [7]