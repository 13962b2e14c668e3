total = 1 + \
      