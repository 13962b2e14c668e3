f = lambda: f()
f()
