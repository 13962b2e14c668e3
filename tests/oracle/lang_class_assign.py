# Assigning an instance's __class__ (what nn.LazyLinear does on its first call).
class A:
    def f(self): return 'A'
class B(A):
    def f(self): return 'B'
class C:
    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
    def f(self): return 'C'
class D(C):
    def f(self): return 'D'
b = B()
b.x = 1
print(type(b).__name__, b.f(), b.__class__.__name__)
for i in range(3):
    b.__class__ = A if i % 2 == 0 else B
    print(type(b).__name__, b.f(), b.x, isinstance(b, B))
d = D()
d.__class__ = C
print(type(d).__name__, d.f())
setattr(d, '__class__', D)
print(type(d).__name__, d.f())
try:
    b.__class__ = 3
except TypeError as e:
    print(e)
try:
    b.__class__ = int
except TypeError as e:
    print(e)
