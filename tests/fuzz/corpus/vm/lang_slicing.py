s = list(range(10))
print(s[::3], s[-3:], s[:-7:-2], s[100:], s[-100:2], s[3:1], s[::-1][::2], 'hello'[1:-1:2], (1, 2, 3)[::-1])
s[2:5] = []
s[:0] = ['x', 'y']
print(s)
del s[::3]
print(s)
t = s[:]
t[0] = 'changed'
print(s[0], t[0])
try:
    s[::-1] = [1]
except ValueError as e:
    print(e)
try:
    s['a':]
except TypeError as e:
    print(e)
print(s[None:None:None], s[1.0:] if False else 0, s[True:])
