class A:
    pass
A.__init__ = 5
try:
    A()
except TypeError as e:
    print(e)
A.__repr__ = lambda self: 7
try:
    print(A)
    print([A.__new__ if hasattr(A, '__new__') else 0])
except Exception as e:
    print(type(e).__name__)
