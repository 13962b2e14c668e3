class A:
    x = [1]
    def m(self):
        return self.x
a1 = A()
a2 = A()
a1.x.append(2)
print(a2.x, A.x is a1.x)
a1.x = 5
print(a1.x, a2.x, A.m(a2), a1.m())
A.y = lambda self: 7
print(a1.y())
print(A.__name__, type(A).__name__)
del A.y
print(hasattr(a1, "y"))
m = a1.m
print(m())
class B(A):
    pass
print(B().m(), B.__name__)
class C(B):
    def m(self):
        return super().m() + [99] if isinstance(super().m(), list) else 0
print(C().m())
