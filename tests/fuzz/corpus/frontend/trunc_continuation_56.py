total = 1 + \
        2 + \
        3
items = [
    1,
 