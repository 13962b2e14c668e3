s = 'x'
while True:
    s = s + s
