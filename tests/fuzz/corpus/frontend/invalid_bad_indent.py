if x:
    a
  b
