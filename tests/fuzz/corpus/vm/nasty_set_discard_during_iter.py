s = {1, 2, 3}
for x in s:
    s.discard(x)
print(s)
