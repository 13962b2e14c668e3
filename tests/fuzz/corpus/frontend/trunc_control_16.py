if x > 0:
    pr