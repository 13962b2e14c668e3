x = 1
if or x in range(10)))
