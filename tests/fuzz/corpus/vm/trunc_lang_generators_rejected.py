def g():
  