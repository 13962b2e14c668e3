try:
    print(object.__setattr__(1, 'a', 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(object.__setattr__(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(object.__setattr__(object(), 'x', 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(object().x)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(object.__init__ if False else 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(staticmethod(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(classmethod(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(property(5).fget)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(property())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(isinstance(property(), property))
except Exception as e:
    print(type(e).__name__, e)
