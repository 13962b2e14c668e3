a = [0]
while True:
    a = a + a
