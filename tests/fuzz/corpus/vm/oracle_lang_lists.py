# list: construction, indexing, slicing, methods, aliasing.
a = [3, 1, 4, 1, 5]
a.append(9)
a.extend([2, 6])
a.insert(0, 7)
a.insert(100, 8)
a.insert(-1, 0)
print(a, len(a))
print(a.pop(), a.pop(0), a.pop(-2), a)
print(a.index(4), a.count(1), a.count(42), 5 in a)
b = a[:]
b.sort()
print(b, a)
b.sort(reverse=True)
print(b)
a.reverse()
print(a)
a.remove(1)
print(a)
print(a[1:3], a[-2:], a[::-1], a[::2], a[10:], a[-100:2])
a[0] = 99
a[1:3] = [10, 20, 30]
print(a)
del a[0]
del a[-1]
print(a)
m = [[0] * 3 for _ in range(2)]
m[0][1] = 5
print(m)
alias = m[1]
alias.append(1)
print(m)
print([1, 2] + [3], [0] * 4, list(range(5)), list(range(2, 10, 3)), list(range(5, 0, -2)))
c = [5, 2, 8]
d = c
d += [1]
print(c, d is c)
e = sorted(c)
print(e, c, sum(c), max(c), min(c))
print([x * x for x in range(6) if x % 2 == 0], [[i, j] for i in range(2) for j in range(2)])
print(a.copy() if hasattr(a, "copy") else a[:], list((1, 2)), [*range(3), *[7, 8]])
try:
    print([1, 2][5])
except IndexError as ex:
    print("IndexError:", ex)
try:
    [].pop()
except IndexError as ex:
    print("IndexError:", ex)
try:
    [1].index(3)
except ValueError as ex:
    print("ValueError:", ex)
a.clear()
print(a, len(a))
