x = 1
prin