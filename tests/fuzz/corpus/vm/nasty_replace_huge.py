s = 'ab' * 5
for i in range(3):
    s = s.replace('a', 'a' * 100000)
    print(len(s))
