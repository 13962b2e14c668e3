i = 0
while True:
    i += 1
    if i % 2:
        continue
    if i > 10:
        break
else:
    print("never")
for j in range(3):
    pass
else:
    print("loop else", j)
x = 5
print("big" if x > 3 else "small", x > 3 and "yes" or "no", not x, 0 < x <= 5 < 6, 1 < 2 > 0 == 0)
a = b = [1]
a.append(2)
print(b, a is b, [1] is [1], None is None, x is not None)
(p, (q, r)), s = (1, (2, 3)), 4
first, *mid, last = range(6)
print(p, q, r, s,