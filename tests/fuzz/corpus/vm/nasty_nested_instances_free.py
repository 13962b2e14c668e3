class N:
    pass
n = N()
for i in range(200000):
    m = N()
    m.next = n
    n = m
del n, m
print('freed')
