def f():
    g()
def g():
    raise ValueError('deep ' * 3)
f()
