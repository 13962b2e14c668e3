# Multiple inheritance: C3 method resolution order, cooperative super() through
# a diamond, mixins beside nn.Module (before and after it), isinstance over
# every base, type() with several bases, and CPython's errors for orders that
# cannot exist.
import torch
import torch.nn as nn


class A:
    def who(self):
        return ["A"]

    def __init__(self, **kw):
        self.trail = getattr(self, "trail", []) + ["A"]


class B(A):
    def who(self):
        return ["B"] + super().who()

    def __init__(self, b=0, **kw):
        super().__init__(**kw)
        self.b = b
        self.trail.append("B")


class C(A):
    def who(self):
        return ["C"] + super().who()

    def __init__(self, c=0, **kw):
        super().__init__(**kw)
        self.c = c
        self.trail.append("C")


class D(B, C):
    def who(self):
        return ["D"] + super().who()

    def __init__(self, **kw):
        super().__init__(**kw)
        self.trail.append("D")


d = D(b=1, c=2)
print([k.__name__ for k in D.__mro__])
print(d.who(), d.trail, d.b, d.c)
print([k.__name__ for k in D.__bases__], D.__base__.__name__)
print(isinstance(d, C), isinstance(d, B), issubclass(D, A), issubclass(C, B))
print(super(B, d).who(), super(C, d).who())


class Left:
    x = "left"

    def f(self):
        return "Left.f"


class Right:
    x = "right"
    y = "right-y"

    def f(self):
        return "Right.f"

    def g(self):
        return "Right.g"


class LR(Left, Right):
    pass


class RL(Right, Left):
    pass


print(LR.x, LR.y, LR().f(), LR().g(), RL.x, RL().f())
print([k.__name__ for k in LR.mro()])


# A mixin before nn.Module: its __init__ runs first and passes on.
class CountMixin:
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = 0

    def count(self):
        self.calls += 1
        return self.calls

    def describe(self):
        return "{} with {} parameters".format(type(self).__name__, sum(p.numel() for p in self.parameters()))


class Net(CountMixin, nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        self.count()
        return torch.relu(self.fc(x))


torch.manual_seed(0)
net = Net()
out = net(torch.randn(4, 3))
print(net.describe(), net.calls, [round(v, 4) for v in out.sum(0).tolist()])
print([n for n, _ in net.named_parameters()], isinstance(net, nn.Module), isinstance(net, CountMixin))


# A mixin after nn.Module, giving a method the module lacks.
class ScaleMixin:
    def scaled(self, x, s):
        return self(x) * s


class Tiny(nn.Module, ScaleMixin):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))

    def forward(self, x):
        return x * self.w


t = Tiny()
y = t.scaled(torch.tensor([1.0, 2.0]), 3.0)
y.sum().backward()
print(y.tolist(), t.w.grad.tolist(), [k.__name__ for k in Tiny.__mro__][:3])


# __init_subclass__ and classmethods through the MRO.
class Registry:
    names = []

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        Registry.names.append(cls.__name__)

    @classmethod
    def make(cls):
        return cls.__name__


class Plugin(Registry, A):
    @classmethod
    def make(cls):
        return "plugin:" + super().make()


class SubPlugin(Plugin):
    pass


print(Registry.names, Plugin.make(), SubPlugin.make(), SubPlugin().who())


# Exceptions with a mixin.
class CodeMixin:
    code = 7


class AppError(CodeMixin, ValueError):
    pass


try:
    raise AppError("bad value")
except ValueError as e:
    print(type(e).__name__, e, e.code, isinstance(e, CodeMixin))

T = type("T", (Left, Right), {"z": 1})
print(T.x, T.z, T().g(), [k.__name__ for k in T.__mro__])

for bases in [(A, B), (Left, Left)]:
    try:
        type("Bad", bases, {})
    except TypeError as e:
        print("TypeError:", e)
try:

    class Bad(A, D):
        pass

except TypeError as e:
    print("TypeError:", e)
try:
    super(B, Left())
except TypeError as e:
    print("TypeError:", e)
