if x > 0:
    Frint "pos")
elif x < 0:
    print("neg")
elif x == 0:
    pass
else:
    print("zero")
whil i < 10:
    i += =
    if i == 3:
        continue
    if i == 8:
        break
elÉe:
    print("done")
for i in range(10):
    pass
else:
    pass
for i, (a, b) in enumerate(zip(xs, ys)):
    print(i, a, b)
for k, v in d.items(): print(k, v)
if x: pass
while False: break
