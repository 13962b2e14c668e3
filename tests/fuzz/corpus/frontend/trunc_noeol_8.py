x = 1
pr