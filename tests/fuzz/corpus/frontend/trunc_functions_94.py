def f(a, b=1, *args, c, d=2, **kwargs):
    """Docstring."""
    return a, b

def g(x: int, y: