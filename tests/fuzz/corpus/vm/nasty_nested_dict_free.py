d = {}
for i in range(200000):
    d = {1: d}
print('built')
