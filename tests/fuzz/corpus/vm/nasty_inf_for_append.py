a = [1]
for x in a:
    a.append(x)
