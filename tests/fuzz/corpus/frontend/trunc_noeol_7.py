x = 1
p