def f(a, b=1, *args, c, d=2, **kwargs):
    """Docstring."""
    return a, b

def g(x: int, y: "Tensor" = None) -> float:
    global counter
    counter += 1
    return x

def h(*, key):
    return key

def outer():
    v = 0
    def inner():
        nonlocal v
        v += 1
        return v
    return inner

lam = lambda: 0
lam2 = lambda x, y=2, *a, k=1, **kw: x + y
lam3 = lambda *args: args
@staticmethod
@decorator(arg=1)
def decorated(self):
    return None

f(1, 2, *xs, c=3, **kw)
f(*a,