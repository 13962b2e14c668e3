s = {1, 2, 3}
for x in s:
    s.add(x + 10)
