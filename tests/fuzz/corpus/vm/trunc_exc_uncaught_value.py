def f():
    g()
def g():
    raise V