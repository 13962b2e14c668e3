a = []
for i in range(100000):
    a = [a]
print(len(str(a)))
