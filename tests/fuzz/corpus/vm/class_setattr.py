class Frozen:
    def __init__(self):
        object.__setattr__(self, "x", 1)
    def __setattr__(self, k, v):
        raise AttributeError("frozen: " + k)
f = Frozen()
print(f.x)
try:
    f.y = 2
except AttributeError as e:
    print(e)
class Logged:
    def __setattr__(self, k, v):
        print("set", k, v)
        object.__setattr__(self, k, v)
l = Logged()
l.a = 5
print(l.a, vars(l))
setattr(l, "b", 6)
print(getattr(l, "b"), hasattr(l, "c"))
delattr(l, "a")
print(hasattr(l, "a"))
