total = 1 + \
        2 + \
        3