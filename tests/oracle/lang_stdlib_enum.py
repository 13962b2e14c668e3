# abc, enum and types: abstract classes refuse instantiation with CPython's
# message; Enum/IntEnum/StrEnum members, lookups, iteration and reprs;
# SimpleNamespace; __init_subclass__ and __new__ in class statements.
import abc
import enum
import types
from abc import ABC, abstractmethod
from enum import Enum, IntEnum, auto


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', e)


class Shape(ABC):
    @abstractmethod
    def area(self):
        pass

    @abstractmethod
    def perimeter(self):
        pass

    def describe(self):
        return type(self).__name__ + ' with area ' + str(self.area())


class Half(Shape):
    def area(self):
        return 1


class Square(Half):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side ** 2

    def perimeter(self):
        return 4 * self.side


show(lambda: Shape())
show(lambda: Half())
sq = Square(3)
print(sq.describe(), sq.perimeter(), isinstance(sq, Shape), isinstance(sq, ABC))


class Base(abc.ABC):
    @property
    @abstractmethod
    def name(self):
        pass


class Named(Base):
    @property
    def name(self):
        return 'named'


show(lambda: Base())
print(Named().name)


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1

    def describe(self):
        return self.name.lower() + '=' + str(self.value)


print(Color.RED, repr(Color.GREEN), Color.RED.name, Color.RED.value, type(Color.RED).__name__)
print(list(Color), len(Color), Color(2), Color['BLUE'], Color.CRIMSON, Color.CRIMSON is Color.RED)
print([c.name for c in Color], Color.BLUE.describe(), Color, isinstance(Color.RED, Color))
print(Color.RED == Color.RED, Color.RED == 1, Color.RED != Color.BLUE, Color.RED in Color, f'{Color.GREEN}')
print(list(Color.__members__), {Color.RED: 'r'}[Color.CRIMSON], sorted(Color, key=lambda c: -c.value)[0])
show(lambda: Color(7))
show(lambda: Color['PINK'])


class Step(IntEnum):
    ONE = auto()
    TWO = auto()
    TEN = 10
    ELEVEN = auto()


print(list(Step), repr(Step.TWO), str(Step.TWO), f'{Step.TEN}', Step.TWO + 1, Step.TEN * 2, Step.ONE == 1)
print(Step(10), Step.TWO < Step.TEN, Step.TWO > 1, [0, 1, 2, 3][Step.TWO], int(Step.ELEVEN), sorted([Step.TEN, Step.ONE]))


class Mode(enum.StrEnum):
    TRAIN = auto()
    EVAL = 'evaluate'


print(list(Mode), str(Mode.TRAIN), Mode.EVAL == 'evaluate', repr(Mode.TRAIN), Mode('train'))


@enum.unique
class Fine(Enum):
    A = 'a'
    B = 'b'


print(list(Fine))
try:
    @enum.unique
    class Dup(Enum):
        X = 1
        Y = 1
except ValueError as e:
    print('ValueError:', e)

ns = types.SimpleNamespace(a=1, b='two')
print(ns, ns.a, ns.b)
ns.c = [3]
del ns.a
print(ns, repr(ns))
print(types.SimpleNamespace(x=1) == types.SimpleNamespace(x=1), types.SimpleNamespace(x=1) == types.SimpleNamespace(x=2))
print(types.SimpleNamespace(), vars(types.SimpleNamespace(k=0)))
show(lambda: ns.missing)
print(isinstance(show, types.FunctionType), isinstance(len, types.BuiltinFunctionType), isinstance(abc, types.ModuleType))

import copy
import json
print(copy.copy(Color.RED) is Color.RED, copy.deepcopy([Color.BLUE])[0] is Color.BLUE, copy.deepcopy({'s': Step.ONE}))
print(json.dumps({Step.TWO: Step.TEN, 'mode': Mode.TRAIN, 'list': [Step.ONE]}))
show(lambda: json.dumps(Color.RED))


# The class machinery enum and abc build on: a base's __init_subclass__ (with
# super() up to object's) and a class's own __new__.
registry = {}


class Plugin:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        registry[cls.__name__] = cls


class A(Plugin):
    pass


class B(A):
    pass


print(sorted(registry))


class Single:
    _inst = None

    def __new__(cls, *args):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __init__(self, v):
        self.v = v


s1 = Single(1)
s2 = Single(2)
print(s1 is s2, s1.v)
