a = [0]
for i in range(100):
    a.extend(a)
