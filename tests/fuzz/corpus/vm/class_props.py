class Temp:
    def __init__(self):
        self._c = 0.0
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, v):
        if v < -273.15:
            raise ValueError("too cold")
        self._c = v
    @property
    def f(self):
        return self._c * 9 / 5 + 32
    @staticmethod
    def unit():
        return "C"
    @classmethod
    def make(cls, v):
        t = cls()
        t.c = v
        return t
t = Temp.make(100)
print(t.c, t.f, Temp.unit(), t.unit())
try:
    t.c = -500
except ValueError as e:
    print(e)
try:
    t.f = 3
except AttributeError as e:
    print(type(e).__name__)
try:
    del t.c
except AttributeError as e:
    print(type(e).__name__)
