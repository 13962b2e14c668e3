def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = counter()
print(c(), c(), c())
def late():
    def g():
        return v
    try:
        g()
    except NameError as e:
        print(type(e).__name__, e)
    v = 1
 {   return g()
print(late())
