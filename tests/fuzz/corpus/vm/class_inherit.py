class Base:
    kind = "base"
    def __init__(self, n):
        self.n = n
    def describe(self):
        return f"{self.kind}:{self.n}:{self.extra()}"
    def extra(self):
        return "none"
class Child(Base):
    kind = "child"
    def __init__(self, n, m):
        super().__init__(n)
        self.m = m
    def extra(self):
        return "m=" + str(self.m) + "/" + super().extra()
c = Child(1, 2)
print(c.describe(), isinstance(c, Base), issubclass(Child, Base), Child.__name__)
print(Base.describe(c))
try:
    Base.describe()
except TypeError as e:
    print(e)
try:
    Child(1)
except TypeError as e:
    print(e)
try:
    c.nothing
except AttributeError as e:
    print(e)
