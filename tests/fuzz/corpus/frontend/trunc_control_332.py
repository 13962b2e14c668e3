if x > 0:
    print("pos")
elif x < 0:
    print("neg")
elif x == 0:
    pass
else:
    print("zero")
while i < 10:
    i += 1
    if i == 3:
        continue
    if i == 8:
        break
else:
    print("done")
for i in range(10):
    pass
else:
    pass
for i, (a, b) in enumerate(zip(xs, ys)):
    print(i, a, b)
for k, v in d.it