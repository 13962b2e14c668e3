s = ''
for i in range(3000):
    s += str(i)
print(len(s))
