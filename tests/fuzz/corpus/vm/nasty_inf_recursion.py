def f():
    return f()
f()
