fs = [lambda x, i=i: x + i for i in range(3)]
print([f(10) for f in fs])
def compose(*fns):
    def run(x):
        for f in reversed(fns):
            x = f(x)
        return x
    return run
print(compose(str, abs, lambda v: v - 10)(3))
def kw(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, sorted(kw.items()))
print(kw(1, c=3), kw(1, 2, 3, 4, c=5, e=6), kw(*[1, 2], **{"c": 7, "z": 0}))
for bad in ["kw()", "kw(1)", "kw(1, c=1, a=2)", "kw(1, **{1: 2})", "kw(*5)", "kw(1, **[1])"]:
    pass
try:
    kw()
except TypeError as e:
    print(e)
try:
    kw(1, c=1, a=2)
except TypeError as e:
    print(e)
try:
    kw(*5)
except TypeError as e:
    print(e)
try:
    kw(1, c=1, **{"c": 2})
except TypeError as e:
    print(e)
g = 0
def setg():
    global g
    g += 1
setg()
print(g)
