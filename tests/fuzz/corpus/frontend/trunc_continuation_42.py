total = 1 + \
        2 + \
        3
item