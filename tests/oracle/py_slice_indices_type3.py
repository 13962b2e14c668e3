# slice.indices and type(name, bases, dict).
print(slice(1, 5, 2).indices(10), slice(None).indices(3), slice(-3, None).indices(5))
print(slice(None, None, -1).indices(4), slice(10, 20).indices(5), slice(-100, 100, 3).indices(7))
s = slice(2, 8, 3)
print(s.start, s.stop, s.step, list(range(*s.indices(20))), list(range(20))[s])


class Base:
    kind = "base"

    def hello(self):
        return "hello from " + type(self).__name__


def area(self):
    return self.w * self.h


Rect = type("Rect", (Base,), {"w": 2, "h": 3, "area": area, "double": staticmethod(lambda x: 2 * x)})
r = Rect()
print(Rect.__name__, r.area(), r.hello(), r.kind, Rect.double(4), isinstance(r, Base), issubclass(Rect, Base))
Empty = type("Empty", (), {})
print(Empty.__name__, type(Empty()).__name__, Empty.__bases__[0].__name__)
print(type(3) is int, type("x").__name__)
for bad in [lambda: slice(1, 2).indices(-1), lambda: slice(1, 2).indices("a"), lambda: slice(0, 1, 0).indices(3),
            lambda: type("A", [], {}), lambda: type("A", (), []), lambda: type(1, (), {}), lambda: type("A", ())]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
