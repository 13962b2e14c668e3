# typing's runtime names (Generic, Protocol, NamedTuple, TypedDict, aliases
# and their reprs, get_type_hints), function and class __annotations__ (also
# through inspect.signature) and str.maketrans/translate/isprintable/format_map.
import functools
import inspect
import typing
from typing import (Any, AbstractSet, Annotated, AnyStr, Awaitable, BinaryIO, Callable, ClassVar, Collection,
                    Concatenate, Container, Coroutine, Counter, DefaultDict, Deque, Dict, Final, FrozenSet,
                    Generator, Generic, Hashable, IO, Iterable, Iterator, List, Literal, Mapping, Match,
                    MutableMapping, MutableSequence, NamedTuple, Never, NewType, NoReturn, Optional,
                    OrderedDict, ParamSpec, Pattern, Protocol, Self, Sequence, Set, Sized, SupportsFloat,
                    SupportsInt, Text, TextIO, Tuple, Type, TypeAlias, TypedDict, TypeGuard, TypeVar, Union,
                    get_args, get_origin, get_type_hints, runtime_checkable)
import torch
import torch.nn as nn

T = TypeVar('T')
K = TypeVar('K')
P = ParamSpec('P')

print('== aliases')


def show(label, fn):
    try:
        print(label, '=>', repr(fn()))
    except Exception as e:
        print(label, '!!', type(e).__name__, e)


show('Optional[int]', lambda: Optional[int])
show('Optional[torch.Tensor]', lambda: Optional[torch.Tensor])
show('Union[int, str]', lambda: Union[int, str])
show('Union[int, None]', lambda: Union[int, None])
show('Union[int]', lambda: Union[int])
show('List[int]', lambda: List[int])
show('Dict[str, List[int]]', lambda: Dict[str, List[int]])
show('Tuple[int, ...]', lambda: Tuple[int, ...])
show('Tuple[()]', lambda: Tuple[()])
show('Callable[[int, str], float]', lambda: Callable[[int, str], float])
show('Callable[..., int]', lambda: Callable[..., int])
show('Any', lambda: Any)
show('List', lambda: List)
show('Optional', lambda: Optional)
show('Union', lambda: Union)
show('Type[int]', lambda: Type[int])
show("Literal[1, 'a']", lambda: Literal[1, 'a'])
show('ClassVar[int]', lambda: ClassVar[int])
show('Final[int]', lambda: Final[int])
show('Sequence[int]', lambda: Sequence[int])
show('Iterator[T]', lambda: Iterator[T])
show('Generic[T]', lambda: Generic[T])
show('Deque[int]', lambda: Deque[int])
show('DefaultDict[str, int]', lambda: DefaultDict[str, int])
show('OrderedDict[str, int]', lambda: OrderedDict[str, int])
show('Counter[str]', lambda: Counter[str])
show('Hashable', lambda: Hashable)
show('Sized', lambda: Sized)
show('Text', lambda: Text)
show('AnyStr', lambda: AnyStr)
show('P', lambda: P)
show('Concatenate[int, P]', lambda: Concatenate[int, P])
show('TypeAlias', lambda: TypeAlias)
show('Self', lambda: Self)
show('Never', lambda: Never)
show('TypeGuard[int]', lambda: TypeGuard[int])
show('Awaitable[int]', lambda: Awaitable[int])
show('Coroutine[int, int, str]', lambda: Coroutine[int, int, str])
show('SupportsInt', lambda: SupportsInt)
show('IO[str]', lambda: IO[str])
show('TextIO', lambda: TextIO)
show('BinaryIO', lambda: BinaryIO)
show('Pattern[str]', lambda: Pattern[str])
show('Match', lambda: Match)
show("Annotated[int, 'meta']", lambda: Annotated[int, 'meta'])
show('NoReturn', lambda: NoReturn)
show('Set[int]', lambda: Set[int])
show('FrozenSet[int]', lambda: FrozenSet[int])
show('Mapping[str, int]', lambda: Mapping[str, int])
show('Iterable', lambda: Iterable)
show('Generator[int, None, None]', lambda: Generator[int, None, None])
show('Collection[int]', lambda: Collection[int])
show('Container', lambda: Container)
show('MutableSequence[int]', lambda: MutableSequence[int])
show('AbstractSet[int]', lambda: AbstractSet[int])
show('Optional[List[int]]', lambda: Optional[List[int]])
show('Union[int, Union[str, float]]', lambda: Union[int, Union[str, float]])
show('Union[int, int]', lambda: Union[int, int])
show('Optional[Optional[int]]', lambda: Optional[Optional[int]])
show('List[Optional[int]]', lambda: List[Optional[int]])
show('List[int].__origin__', lambda: List[int].__origin__)
show('List[int].__args__', lambda: List[int].__args__)
show('Optional[int].__args__', lambda: Optional[int].__args__)
show('get_origin(List[int])', lambda: get_origin(List[int]))
show('get_args(Dict[str, int])', lambda: get_args(Dict[str, int]))
show('get_origin(Optional[int])', lambda: get_origin(Optional[int]))
show('get_args(Optional[int])', lambda: get_args(Optional[int]))
show('get_origin(int)', lambda: get_origin(int))
show('get_args(int)', lambda: get_args(int))
show('get_args(Annotated[int, 1])', lambda: get_args(Annotated[int, 1]))
show('get_args(Callable[[int], str])', lambda: get_args(Callable[[int], str]))
show('Tuple', lambda: Tuple)
show('Callable', lambda: Callable)
show('Dict', lambda: Dict)
show('Type', lambda: Type)
show('ClassVar', lambda: ClassVar)
show('Literal', lambda: Literal)
show('Sequence', lambda: Sequence)
show('MutableMapping[str, int]', lambda: MutableMapping[str, int])
show('Optional[T]', lambda: Optional[T])
show('T', lambda: T)
show("TypeVar('U', bound=int)", lambda: TypeVar('U', bound=int))
show('Sequence[str] == Sequence[str]', lambda: Sequence[str] == Sequence[str])
show('Optional[int] == Union[int, None]', lambda: Optional[int] == Union[int, None])
show('Union[int, str] == Union[str, int]', lambda: Union[int, str] == Union[str, int])
show("NewType('UserId', int)", lambda: NewType('UserId', int))
show("NewType('UserId', int)(5)", lambda: NewType('UserId', int)(5))
show('Callable[[], int]', lambda: Callable[[], int])
show('List[int]([1])', lambda: List[int]([1]))
show('Union[int, None, str]', lambda: Union[int, None, str])
show('List[T][int]', lambda: List[T][int])
show('Dict[str, T][float]', lambda: Dict[str, T][float])
show("Optional['Foo']", lambda: Optional['Foo'])
show('P.args', lambda: P.args)
show("TypeVar('C', covariant=True)", lambda: TypeVar('C', covariant=True))
show('get_origin(Generic[T])', lambda: get_origin(Generic[T]))
show('get_origin(Callable[[int], str])', lambda: get_origin(Callable[[int], str]))
show('Any[int]', lambda: Any[int])
show('Any()', lambda: Any())

print('== classes')


class Box(Generic[T]):
    def __init__(self, item: T):
        self.item = item

    def get(self) -> T:
        return self.item


b = Box(3)
print(b.get(), Box[int], Box.__parameters__, Box.__orig_bases__, Box.__mro__)
bi = Box[int](5)
print(bi.item, bi.__orig_class__, isinstance(bi, Box), get_origin(Box[int]), get_args(Box[int]))


class Pair(Box[T], Generic[K, T]):
    pass


print(Pair.__parameters__, Pair[str, int], Pair.__mro__)


class TypedLinear(nn.Module, Generic[T]):
    def __init__(self, n: int):
        super().__init__()
        self.lin = nn.Linear(n, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x)


torch.manual_seed(0)
m = TypedLinear[float](3)
print(type(m).__name__, [c.__name__ for c in TypedLinear.__mro__], m(torch.ones(2, 3)).shape, isinstance(m, nn.Module))
print(TypedLinear.forward.__annotations__)


@runtime_checkable
class Closable(Protocol):
    def close(self) -> None: ...


class HasSize(Protocol):
    size: int


class File:
    def close(self):
        return 'closed'


class Rock:
    pass


print(isinstance(File(), Closable), isinstance(Rock(), Closable), Closable.__mro__)
try:
    isinstance(File(), HasSize)
except TypeError as e:
    print('TypeError', e)
try:
    runtime_checkable(Rock)
except TypeError as e:
    print('TypeError', e)
print(isinstance(3, SupportsInt), isinstance('x', SupportsInt), isinstance(2.5, SupportsFloat))


class Impl(Closable):
    def close(self):
        return 1


print(isinstance(Impl(), Closable), Impl().close())


class Point(NamedTuple):
    x: int
    y: float = 0.0
    label: str = 'p'

    def norm1(self):
        return abs(self.x) + abs(self.y)

    def __str__(self):
        return 'P<' + str(self.x) + '>'


p = Point(1, 2.5)
print(p, repr(p), str(p), p.norm1(), p._fields, p._asdict(), p._replace(x=7), Point._field_defaults)
print(p[0], p[1], p[-1], len(p), list(p), p == Point(1, 2.5), p == (1, 2.5, 'p'), Point(3))
x, y, lab = p
print(x, y, lab, Point.__annotations__, Point.__name__)
try:
    Point()
except TypeError:
    print('TypeError')
try:
    class Bad(NamedTuple):
        a: int = 1
        b: int
except TypeError as e:
    print('TypeError', e)
P2 = NamedTuple('P2', [('a', int), ('b', str)])
q = P2(1, 'z')
print(q, q.a, q.b, P2._fields, P2.__annotations__, P2.__name__)


class Movie(TypedDict):
    name: str
    year: int


mv = Movie(name='Alien', year=1979)
print(mv, type(mv).__name__, Movie.__annotations__, sorted(Movie.__required_keys__), Movie.__total__)
M2 = TypedDict('M2', {'a': int})
print(M2(a=1), M2.__annotations__)

UserId = NewType('UserId', int)
print(UserId, UserId(5), UserId.__supertype__, UserId.__name__)


def f(x: int, y: Optional[List[int]] = None, *args: str, z: 'Box' = None, **kw: float) -> Dict[str, int]:
    return {}


print(f.__annotations__)
print(get_type_hints(f, globals()))


def g(a, b=1):
    pass


print(g.__annotations__, get_type_hints(g))


class Cfg:
    lr: float = 0.1
    tags: ClassVar[List[str]] = []


class SubCfg(Cfg):
    depth: Annotated[int, 'layers'] = 2
    extra: None = None


class Empty:
    pass


print(Cfg.__annotations__, SubCfg.__annotations__, Empty.__annotations__)
print(get_type_hints(SubCfg))
print(get_type_hints(SubCfg, include_extras=True))

print('== annotations')


def f(x: int, y: Optional[List[int]] = None, *args: str, z: torch.Tensor = None, **kw: float) -> 'Box':
    pass


def g(a, b=1):
    pass


def k(x: int, *a: str, y: float = 1.0, **kw: dict) -> str:
    return 'a'


def outer():
    V = list

    def inner(v: V) -> V:
        return v
    return inner


@functools.wraps(f)
def h(*a, **kw):
    return f(*a, **kw)


print(k.__annotations__, g.__annotations__, outer().__annotations__)
print(vars(k), vars(g))
print(inspect.signature(f))
print(inspect.signature(g))
print(inspect.getfullargspec(f))
print(inspect.signature(f).parameters['x'].annotation, inspect.signature(f).return_annotation)
print(h.__annotations__ is f.__annotations__, inspect.signature(h))


class C:
    x: int


class D(C):
    pass


print(C.__annotations__, D.__annotations__)

print('== str')
table = str.maketrans('ab', 'xy', 'c')
print(table, 'abcab'.translate(table), 'abc'.maketrans('a', 'b'))
print(str.maketrans({'a': 'Z', 98: None}), 'abc'.translate({97: 'Q', 98: None, 99: 100}))
print('h\u00e9llo'.translate({ord('\u00e9'): 'e'}), 'abc'.translate([None] * 98 + ['X']))


class Letters:
    def __getitem__(self, key):
        if key == 97:
            return 'A'
        raise LookupError(key)


class Fallback:
    def __getitem__(self, key):
        return '<' + key + '>'


print('abc'.translate(Letters()), '{a}-{b:>{w}}'.format_map({'a': 1, 'b': 'x', 'w': 4}),
      '{x}+{y}'.format_map(Fallback()))
print([c.isprintable() for c in 'a\t\u00e9\u2028\x7f\xa0 \xad\u3000\u4e2d'], ''.isprintable(),
      'Stra\u00dfe'.casefold())
show('str.maketrans()', lambda: str.maketrans())
show('str.maketrans(1)', lambda: str.maketrans(1))
show("str.maketrans({1.5: 'a'})", lambda: str.maketrans({1.5: 'a'}))
show("str.maketrans({'ab': 'a'})", lambda: str.maketrans({'ab': 'a'}))
show("str.maketrans('ab', 'c')", lambda: str.maketrans('ab', 'c'))
show("str.maketrans(1, 'c')", lambda: str.maketrans(1, 'c'))
show("str.maketrans('a', 1)", lambda: str.maketrans('a', 1))
show("str.maketrans('a', 'b', 1)", lambda: str.maketrans('a', 'b', 1))
show("str.maketrans('a', 'b', 'c', 'd')", lambda: str.maketrans('a', 'b', 'c', 'd'))
show("'abc'.translate({97: 1.5})", lambda: 'abc'.translate({97: 1.5}))
show("'abc'.translate({97: 1114112})", lambda: 'abc'.translate({97: 1114112}))
show("'abc'.translate()", lambda: 'abc'.translate())
show("'abc'.translate(5)", lambda: 'abc'.translate(5))
show("'{0}'.format_map({})", lambda: '{0}'.format_map({}))
show("'{}'.format_map({'a': 1})", lambda: '{}'.format_map({'a': 1}))
show("'{a}'.format_map({})", lambda: '{a}'.format_map({}))
show("'{a}'.format_map(1)", lambda: '{a}'.format_map(1))
show("'x'.format_map()", lambda: 'x'.format_map())
show("'a'.isprintable(1)", lambda: 'a'.isprintable(1))
