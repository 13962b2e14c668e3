a = []
for i in range(200000):
    a = [a]
del a
print('freed')
