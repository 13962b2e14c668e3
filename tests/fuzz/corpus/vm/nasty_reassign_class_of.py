class A:
    pass
class B:
    pass
a = A()
try:
    a.__class__ = B
except Exception as e:
    print(type(e).__name__)
print(type(a).__name__)
