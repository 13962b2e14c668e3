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
       (2,
              3)],
}
