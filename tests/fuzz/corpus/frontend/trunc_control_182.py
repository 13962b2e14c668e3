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
        