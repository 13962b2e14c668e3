# typing: the names model code imports for its annotations. Kiln checks no
# types; what matters is that `from typing import Optional, List` works and
# that subscripted forms (`Optional[torch.Tensor]`, `Dict[str, int]`) are
# values, since class and module annotations are evaluated as in CPython.


class _SpecialForm:
    def __init__(self, name, args=None):
        self._name = name
        self.__args__ = args

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        return _SpecialForm(self._name, params)

    def __call__(self, *args, **kwargs):
        raise TypeError("Cannot instantiate typing." + self._name)

    def __repr__(self):
        if self.__args__ is None:
            return 'typing.' + self._name
        return 'typing.' + self._name + '[' + ', '.join([_type_repr(a) for a in self.__args__]) + ']'


def _type_repr(obj):
    if obj is None:
        return 'None'
    if isinstance(obj, (_SpecialForm, TypeVar)) or not hasattr(obj, '__name__'):
        return repr(obj)
    return obj.__name__


Any = _SpecialForm('Any')
Union = _SpecialForm('Union')
Optional = _SpecialForm('Optional')
List = _SpecialForm('List')
Dict = _SpecialForm('Dict')
Tuple = _SpecialForm('Tuple')
Set = _SpecialForm('Set')
FrozenSet = _SpecialForm('FrozenSet')
Type = _SpecialForm('Type')
Callable = _SpecialForm('Callable')
Sequence = _SpecialForm('Sequence')
Mapping = _SpecialForm('Mapping')
MutableMapping = _SpecialForm('MutableMapping')
Iterable = _SpecialForm('Iterable')
Iterator = _SpecialForm('Iterator')
Generator = _SpecialForm('Generator')
Literal = _SpecialForm('Literal')
ClassVar = _SpecialForm('ClassVar')
Final = _SpecialForm('Final')
NoReturn = _SpecialForm('NoReturn')
TYPE_CHECKING = False


class TypeVar:
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound

    def __repr__(self):
        return '~' + self.__name__


def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(f):
    return f
