a = [1]
a.append(a)
print(a, repr(a), str(a), len(str(a)))
