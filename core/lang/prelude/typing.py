# typing: the names model code imports for its annotations, with CPython
# 3.11's reprs, get_origin/get_args and the runtime behaviour a script can
# see. Kiln checks no types. Kiln has no metaclasses: Generic's and
# Protocol's class-level [] and isinstance come from __kiln_metaclass__, and
# Generic[T], NamedTuple and TypedDict stand for real base classes through
# __mro_entries__ (PEP 560). The collections.abc origins are stand-in classes
# (Kiln has no collections.abc), so isinstance against them is not supported.

import collections as _collections
import _frames

_NoneType = type(None)


class ForwardRef:
    def __init__(self, arg):
        self.__forward_arg__ = arg

    def __eq__(self, other):
        return isinstance(other, ForwardRef) and self.__forward_arg__ == other.__forward_arg__

    def __hash__(self):
        return hash(self.__forward_arg__)

    def __repr__(self):
        return 'ForwardRef(' + repr(self.__forward_arg__) + ')'


def _type_convert(arg):
    if arg is None:
        return _NoneType
    if isinstance(arg, str):
        return ForwardRef(arg)
    return arg


def _type_repr(obj):
    if obj is ...:
        return '...'
    if isinstance(obj, type):
        if obj.__module__ == 'builtins':
            return obj.__qualname__
        return obj.__module__ + '.' + obj.__qualname__
    if callable(obj) and not isinstance(obj, _Final) and hasattr(obj, '__name__'):
        return obj.__name__
    return repr(obj)


def _as_tuple(params):
    return params if isinstance(params, tuple) else (params,)


def _collect_parameters(args):
    found = []
    for a in args:
        if isinstance(a, (TypeVar, ParamSpec)):
            if a not in found:
                found.append(a)
        else:
            for p in getattr(a, '__parameters__', ()):
                if p not in found:
                    found.append(p)
    return tuple(found)


class _Final:
    pass


# ---- special forms ------------------------------------------------------------------------

class _SpecialForm(_Final):
    def __init__(self, name, getitem=None):
        self._name = name
        self._getitem = getitem

    def __getitem__(self, params):
        if self._getitem is None:
            raise TypeError(repr(self) + ' is not subscriptable')
        return self._getitem(self, params)

    def __call__(self, *args, **kwargs):
        raise TypeError('Cannot instantiate ' + repr(self))

    def __repr__(self):
        return 'typing.' + self._name


def _union_getitem(form, params):
    params = _as_tuple(params)
    if not params:
        raise TypeError('Cannot take a Union of no types.')
    args = []
    for p in params:
        p = _type_convert(p)
        for a in (p.__args__ if isinstance(p, _UnionGenericAlias) else (p,)):
            if a not in args:
                args.append(a)
    if len(args) == 1:
        return args[0]
    return _UnionGenericAlias(form, tuple(args))


def _optional_getitem(form, params):
    if isinstance(params, tuple) and len(params) != 1:
        raise TypeError('typing.Optional requires a single type.')
    return Union[_as_tuple(params)[0], None]


def _single_getitem(form, params):
    params = _as_tuple(params)
    if len(params) != 1:
        raise TypeError(repr(form) + ' accepts only single type.')
    return _GenericAlias(form, (_type_convert(params[0]),), form._name)


def _literal_getitem(form, params):
    args = []
    for p in _as_tuple(params):
        if p not in args:
            args.append(p)
    return _GenericAlias(form, tuple(args), form._name)


def _concatenate_getitem(form, params):
    params = _as_tuple(params)
    if not isinstance(params[-1], ParamSpec) and params[-1] is not ...:
        raise TypeError('The last parameter to Concatenate should be a ParamSpec variable or ellipsis.')
    return _GenericAlias(form, tuple(_type_convert(p) for p in params), form._name)


def _annotated_getitem(form, params):
    params = _as_tuple(params)
    if len(params) < 2:
        raise TypeError('Annotated[...] should be used with at least two arguments '
                        '(a type and an annotation).')
    return _AnnotatedAlias(_type_convert(params[0]), params[1:])


class _AnyForm(_SpecialForm):
    # Any is a class in CPython 3.11, with a class's wording.
    def __getitem__(self, params):
        raise TypeError("type 'Any' is not subscriptable")

    def __call__(self, *args, **kwargs):
        raise TypeError('Any cannot be instantiated')


Any = _AnyForm('Any')
NoReturn = _SpecialForm('NoReturn')
Never = _SpecialForm('Never')
Self = _SpecialForm('Self')
TypeAlias = _SpecialForm('TypeAlias')
LiteralString = _SpecialForm('LiteralString')
Union = _SpecialForm('Union', _union_getitem)
Optional = _SpecialForm('Optional', _optional_getitem)
ClassVar = _SpecialForm('ClassVar', _single_getitem)
Final = _SpecialForm('Final', _single_getitem)
TypeGuard = _SpecialForm('TypeGuard', _single_getitem)
Required = _SpecialForm('Required', _single_getitem)
NotRequired = _SpecialForm('NotRequired', _single_getitem)
Literal = _SpecialForm('Literal', _literal_getitem)
Concatenate = _SpecialForm('Concatenate', _concatenate_getitem)
Annotated = _SpecialForm('Annotated', _annotated_getitem)
TYPE_CHECKING = False


# ---- aliases ------------------------------------------------------------------------------

class _GenericAlias(_Final):
    # origin[args]: origin is the runtime class (list, a Generic subclass) or
    # the special form; name is typing's name for it (None: the class's own).
    def __init__(self, origin, args, name=None):
        self.__origin__ = origin
        self.__args__ = args
        self.__parameters__ = _collect_parameters(args)
        self._name = name

    def __eq__(self, other):
        if not isinstance(other, _GenericAlias):
            return NotImplemented
        return self.__origin__ == other.__origin__ and self.__args__ == other.__args__

    def __hash__(self):
        return hash((self.__origin__, self.__args__))

    def __getitem__(self, params):
        # Substitutes this alias's type variables: List[T][int] is List[int].
        params = _as_tuple(params)
        if len(params) != len(self.__parameters__):
            raise TypeError('Too ' + ('many' if len(params) > len(self.__parameters__) else 'few')
                            + ' arguments for ' + repr(self))
        subst = dict(zip(self.__parameters__, params))
        return self.copy_with(tuple(_substitute(a, subst) for a in self.__args__))

    def copy_with(self, args):
        return _GenericAlias(self.__origin__, args, self._name)

    def __call__(self, *args, **kwargs):
        if self._name is not None:
            raise TypeError('Type ' + self._name + ' cannot be instantiated; use '
                            + self.__origin__.__name__ + '() instead')
        result = self.__origin__(*args, **kwargs)
        try:
            result.__orig_class__ = self
        except Exception:
            pass
        return result

    def __mro_entries__(self, bases):
        if self.__origin__ is Generic or self.__origin__ is Protocol:
            i = bases.index(self)
            for b in bases[i + 1:]:
                if isinstance(b, _GenericAlias) or isinstance(b, type) and issubclass(b, Generic):
                    return ()
        return (self.__origin__,)

    def _args_repr(self):
        if not self.__args__:
            return '()'
        return ', '.join([_type_repr(a) for a in self.__args__])

    def __repr__(self):
        if self._name is not None:
            head = 'typing.' + self._name
        elif isinstance(self.__origin__, _SpecialForm):
            head = repr(self.__origin__)
        else:
            head = _type_repr(self.__origin__)
        return head + '[' + self._args_repr() + ']'


def _substitute(arg, subst):
    if isinstance(arg, (TypeVar, ParamSpec)):
        return subst.get(arg, arg)
    if isinstance(arg, _GenericAlias) and arg.__parameters__:
        return arg[tuple(subst.get(p, p) for p in arg.__parameters__)]
    return arg


class _UnionGenericAlias(_GenericAlias):
    def copy_with(self, args):
        return Union[args]

    def __eq__(self, other):
        if not isinstance(other, _UnionGenericAlias):
            return NotImplemented
        return set(self.__args__) == set(other.__args__)

    def __hash__(self):
        return hash(frozenset(self.__args__))

    def __repr__(self):
        args = self.__args__
        if len(args) == 2 and _NoneType in args:
            other = args[1] if args[0] is _NoneType else args[0]
            return 'typing.Optional[' + _type_repr(other) + ']'
        return 'typing.Union[' + self._args_repr() + ']'


class _CallableGenericAlias(_GenericAlias):
    # __args__ is flat (parameters..., result), as CPython keeps it.
    def copy_with(self, args):
        return _CallableGenericAlias(self.__origin__, args, self._name)

    def _args_repr(self):
        params, result = self.__args__[:-1], self.__args__[-1]
        if len(params) == 1 and (params[0] is ... or isinstance(params[0], ParamSpec)):
            head = _type_repr(params[0])
        else:
            head = '[' + ', '.join([_type_repr(a) for a in params]) + ']'
        return head + ', ' + _type_repr(result)


class _AnnotatedAlias(_GenericAlias):
    def __init__(self, origin, metadata):
        _GenericAlias.__init__(self, origin, (origin,), None)
        self.__metadata__ = tuple(metadata)

    def copy_with(self, args):
        return _AnnotatedAlias(args[0], self.__metadata__)

    def __eq__(self, other):
        if not isinstance(other, _AnnotatedAlias):
            return NotImplemented
        return self.__origin__ == other.__origin__ and self.__metadata__ == other.__metadata__

    def __hash__(self):
        return hash((self.__origin__, self.__metadata__))

    def __call__(self, *args, **kwargs):
        return self.__origin__(*args, **kwargs)

    def __mro_entries__(self, bases):
        return (self.__origin__,)

    def __repr__(self):
        return ('typing.Annotated[' + _type_repr(self.__origin__) + ', '
                + ', '.join([repr(m) for m in self.__metadata__]) + ']')


class _SpecialGenericAlias(_Final):
    # The bare deprecated aliases (List, Dict, Sequence, ...): typing.List,
    # and List[int] is a _GenericAlias over list.
    def __init__(self, origin, nparams, name):
        self.__origin__ = origin
        self._nparams = nparams
        self._name = name

    def __getitem__(self, params):
        params = _as_tuple(params)
        if self._nparams >= 0 and len(params) != self._nparams:
            raise TypeError('Too ' + ('many' if len(params) > self._nparams else 'few')
                            + ' arguments for ' + repr(self) + '; actual ' + str(len(params))
                            + ', expected ' + str(self._nparams))
        return _GenericAlias(self.__origin__, tuple(_type_convert(p) for p in params), self._name)

    def __call__(self, *args, **kwargs):
        raise TypeError('Type ' + self._name + ' cannot be instantiated; use '
                        + self.__origin__.__name__ + '() instead')

    def __mro_entries__(self, bases):
        return (self.__origin__,)

    def __repr__(self):
        return 'typing.' + self._name


class _TupleAlias(_SpecialGenericAlias):
    def __getitem__(self, params):
        if params == ():
            return _GenericAlias(tuple, (), 'Tuple')
        return _GenericAlias(tuple, tuple(p if p is ... else _type_convert(p) for p in _as_tuple(params)), 'Tuple')


class _CallableAlias(_SpecialGenericAlias):
    def __getitem__(self, params):
        if not isinstance(params, tuple) or len(params) != 2:
            raise TypeError('Callable must be used as Callable[[arg, ...], result].')
        args, result = params
        if isinstance(args, list):
            args = tuple(_type_convert(a) for a in args)
        elif args is ... or isinstance(args, ParamSpec):
            args = (args,)
        else:
            raise TypeError('Callable[args, result]: args must be a list. Got ' + _type_repr(args))
        return _CallableGenericAlias(self.__origin__, args + (_type_convert(result),), 'Callable')


def _abc(name):
    # A stand-in for collections.abc.<name>: the origin get_origin reports.
    return type(name, (), {'__module__': 'collections.abc'})


List = _SpecialGenericAlias(list, 1, 'List')
Dict = _SpecialGenericAlias(dict, 2, 'Dict')
Set = _SpecialGenericAlias(set, 1, 'Set')
FrozenSet = _SpecialGenericAlias(frozenset, 1, 'FrozenSet')
Type = _SpecialGenericAlias(type, 1, 'Type')
Tuple = _TupleAlias(tuple, -1, 'Tuple')
Callable = _CallableAlias(_abc('Callable'), 2, 'Callable')
Deque = _SpecialGenericAlias(_collections.deque, 1, 'Deque')
DefaultDict = _SpecialGenericAlias(_collections.defaultdict, 2, 'DefaultDict')
OrderedDict = _SpecialGenericAlias(_collections.OrderedDict, 2, 'OrderedDict')
Counter = _SpecialGenericAlias(_collections.Counter, 1, 'Counter')
ChainMap = _SpecialGenericAlias(_abc('ChainMap'), 2, 'ChainMap')
Text = str

Hashable = _SpecialGenericAlias(_abc('Hashable'), 0, 'Hashable')
Sized = _SpecialGenericAlias(_abc('Sized'), 0, 'Sized')
Awaitable = _SpecialGenericAlias(_abc('Awaitable'), 1, 'Awaitable')
Coroutine = _SpecialGenericAlias(_abc('Coroutine'), 3, 'Coroutine')
AsyncIterable = _SpecialGenericAlias(_abc('AsyncIterable'), 1, 'AsyncIterable')
AsyncIterator = _SpecialGenericAlias(_abc('AsyncIterator'), 1, 'AsyncIterator')
Iterable = _SpecialGenericAlias(_abc('Iterable'), 1, 'Iterable')
Iterator = _SpecialGenericAlias(_abc('Iterator'), 1, 'Iterator')
Reversible = _SpecialGenericAlias(_abc('Reversible'), 1, 'Reversible')
Container = _SpecialGenericAlias(_abc('Container'), 1, 'Container')
Collection = _SpecialGenericAlias(_abc('Collection'), 1, 'Collection')
Generator = _SpecialGenericAlias(_abc('Generator'), 3, 'Generator')
AsyncGenerator = _SpecialGenericAlias(_abc('AsyncGenerator'), 2, 'AsyncGenerator')
AbstractSet = _SpecialGenericAlias(_abc('Set'), 1, 'AbstractSet')
MutableSet = _SpecialGenericAlias(_abc('MutableSet'), 1, 'MutableSet')
Mapping = _SpecialGenericAlias(_abc('Mapping'), 2, 'Mapping')
MutableMapping = _SpecialGenericAlias(_abc('MutableMapping'), 2, 'MutableMapping')
Sequence = _SpecialGenericAlias(_abc('Sequence'), 1, 'Sequence')
MutableSequence = _SpecialGenericAlias(_abc('MutableSequence'), 1, 'MutableSequence')
ByteString = _SpecialGenericAlias(_abc('ByteString'), 0, 'ByteString')
MappingView = _SpecialGenericAlias(_abc('MappingView'), 1, 'MappingView')
KeysView = _SpecialGenericAlias(_abc('KeysView'), 1, 'KeysView')
ItemsView = _SpecialGenericAlias(_abc('ItemsView'), 2, 'ItemsView')
ValuesView = _SpecialGenericAlias(_abc('ValuesView'), 1, 'ValuesView')
ContextManager = _SpecialGenericAlias(_abc('AbstractContextManager'), 1, 'ContextManager')
AsyncContextManager = _SpecialGenericAlias(_abc('AbstractAsyncContextManager'), 1, 'AsyncContextManager')
Pattern = _SpecialGenericAlias(_abc('Pattern'), 1, 'Pattern')
Match = _SpecialGenericAlias(_abc('Match'), 1, 'Match')


# ---- type variables -----------------------------------------------------------------------

class TypeVar(_Final):
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        if covariant and contravariant:
            raise ValueError('Bivariant types are not supported.')
        if len(constraints) == 1:
            raise TypeError('A single constraint is not allowed')
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = _type_convert(bound) if bound is not None else None
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    def __repr__(self):
        prefix = '+' if self.__covariant__ else '-' if self.__contravariant__ else '~'
        return prefix + self.__name__


class _ParamSpecPart(_Final):
    def __init__(self, origin, kind):
        self.__origin__ = origin
        self._kind = kind

    def __repr__(self):
        return self.__origin__.__name__ + '.' + self._kind


class ParamSpec(TypeVar):
    def __init__(self, name, *, bound=None, covariant=False, contravariant=False):
        TypeVar.__init__(self, name, bound=bound, covariant=covariant, contravariant=contravariant)
        self.args = _ParamSpecPart(self, 'args')
        self.kwargs = _ParamSpecPart(self, 'kwargs')


AnyStr = TypeVar('AnyStr', bytes, str)


# ---- Generic and Protocol -----------------------------------------------------------------

class _GenericMeta:
    # Class-level [] of Generic and its subclasses: Box[int].
    def __getitem__(cls, params):
        params = tuple(_type_convert(p) for p in _as_tuple(params))
        if cls is Generic or cls is Protocol:
            for p in params:
                if not isinstance(p, (TypeVar, ParamSpec)):
                    raise TypeError('Parameters to ' + cls.__name__ + '[...] must all be type variables '
                                    'or parameter specification variables.')
            if len(set(params)) != len(params):
                raise TypeError('Parameters to ' + cls.__name__ + '[...] must all be unique')
        elif len(params) != len(cls.__parameters__):
            raise TypeError('Too ' + ('many' if len(params) > len(cls.__parameters__) else 'few')
                            + ' arguments for ' + _type_repr(cls) + '; actual ' + str(len(params))
                            + ', expected ' + str(len(cls.__parameters__)))
        return _GenericAlias(cls, params)


class Generic:
    __kiln_metaclass__ = _GenericMeta
    __parameters__ = ()

    def __init_subclass__(cls, **kwargs):
        # The type variables come from the Generic[...] base, else from every
        # subscripted base in order (CPython's rule).
        orig = vars(cls).get('__orig_bases__', ())
        params = None
        for b in orig:
            if isinstance(b, _GenericAlias) and b.__origin__ in (Generic, Protocol):
                params = b.__parameters__
        if params is None:
            params = _collect_parameters([b for b in orig if isinstance(b, _GenericAlias)])
        cls.__parameters__ = params
        super().__init_subclass__(**kwargs)


_SPECIAL_NAMES = {'__module__', '__qualname__', '__doc__', '__dict__', '__weakref__', '__annotations__',
                  '__orig_bases__', '__parameters__', '__init_subclass__', '__kiln_metaclass__',
                  '__abstractmethods__', '__init__', '__slots__', '__protocol_attrs__',
                  '_is_protocol', '_is_runtime_protocol'}


def _protocol_attrs(cls):
    attrs = []
    for base in reversed(cls.__mro__[:-1]):
        if base in (Protocol, Generic) or not vars(base).get('_is_protocol', False):
            continue
        names = list(vars(base)) + list(vars(base).get('__annotations__', {}))
        for name in names:
            if name not in _SPECIAL_NAMES and not name.startswith('_abc_') and name not in attrs:
                attrs.append(name)
    return attrs


class _ProtocolMeta(_GenericMeta):
    def __instancecheck__(cls, obj):
        if not vars(cls).get('_is_protocol', False):
            return False
        if not getattr(cls, '_is_runtime_protocol', False):
            raise TypeError('Instance and class checks can only be used with @runtime_checkable protocols')
        return all(_has_member(obj, name) for name in cls.__protocol_attrs__)


# Kiln's ints and floats expose no __int__/__float__ attributes.
_NUMBER_DUNDERS = {'__int__', '__float__', '__index__', '__complex__', '__abs__', '__round__', '__bytes__'}


def _has_member(obj, name):
    if hasattr(obj, name):
        return True
    return name in _NUMBER_DUNDERS and isinstance(obj, (int, float)) and name != '__bytes__'


class Protocol(Generic):
    __kiln_metaclass__ = _ProtocolMeta
    _is_protocol = True

    def __init_subclass__(cls, **kwargs):
        # A protocol is a class whose bases are all protocols (or Generic).
        cls._is_protocol = all(b is Generic or vars(b).get('_is_protocol', False) for b in cls.__bases__)
        cls.__protocol_attrs__ = _protocol_attrs(cls)
        super().__init_subclass__(**kwargs)


def runtime_checkable(cls):
    if not (isinstance(cls, type) and issubclass(cls, Generic) and vars(cls).get('_is_protocol', False)):
        raise TypeError('@runtime_checkable can be only applied to protocol classes, got ' + repr(cls))
    cls._is_runtime_protocol = True
    return cls


@runtime_checkable
class SupportsInt(Protocol):
    def __int__(self):
        pass


@runtime_checkable
class SupportsFloat(Protocol):
    def __float__(self):
        pass


@runtime_checkable
class SupportsIndex(Protocol):
    def __index__(self):
        pass


@runtime_checkable
class SupportsAbs(Protocol[TypeVar('T_co', covariant=True)]):
    def __abs__(self):
        pass


class IO(Generic[AnyStr]):
    pass


class TextIO(IO[str]):
    pass


class BinaryIO(IO[bytes]):
    pass


# ---- NamedTuple, TypedDict, NewType -------------------------------------------------------

def _make_namedtuple(name, fields, defaults=(), module=None):
    nt = _collections.namedtuple(name, [f for f, _ in fields], defaults=defaults, module=module)
    nt.__annotations__ = dict(fields)
    return nt


class _NamedTupleBase(tuple):
    # A `class P(NamedTuple)` body becomes a namedtuple (a tuple subclass): its
    # annotated names are the fields, their values the defaults, its methods are kept.
    def __init_subclass__(cls):
        fields = list(vars(cls).get('__annotations__', {}).items())
        defaults = []
        for name, _ in fields:
            if name in vars(cls):
                defaults.append(vars(cls)[name])
            elif defaults:
                raise TypeError('Non-default namedtuple field ' + name + ' cannot follow default field'
                                + ('s ' if len(defaults) > 1 else ' ')
                                + ', '.join([f for f, _ in fields if f in vars(cls)]))
        nt = _make_namedtuple(cls.__name__, fields, defaults)
        own = vars(cls)
        for key, value in list(vars(nt).items()):
            if (key not in own or key in nt._fields) and key not in ('__module__', '__qualname__', '__dict__', '__weakref__'):
                setattr(cls, key, value)


class _NamedTupleFactory(_Final):
    def __call__(self, typename, fields=None, **kwargs):
        if fields is None:
            fields = list(kwargs.items())
        return _make_namedtuple(typename, [(n, _type_convert(t)) for n, t in fields], module=_frames.module(1))

    def __mro_entries__(self, bases):
        return (_NamedTupleBase,)

    def __repr__(self):
        return '<function NamedTuple>'


NamedTuple = _NamedTupleFactory()


class _TypedDictBase:
    # Instances of a TypedDict class are plain dicts.
    def __new__(cls, *args, **kwargs):
        return dict(*args, **kwargs)

    def __init_subclass__(cls):
        hints = {}
        for base in reversed(cls.__mro__[:-1]):
            hints.update(vars(base).get('__annotations__', {}))
        cls.__annotations__ = hints
        cls.__total__ = True
        cls.__required_keys__ = frozenset(hints)
        cls.__optional_keys__ = frozenset()


class _TypedDictFactory(_Final):
    def __call__(self, typename, fields=None, total=True, **kwargs):
        cls = type(typename, (_TypedDictBase,), {'__annotations__': dict(fields or kwargs)})
        if not total:
            cls.__total__ = False
            cls.__optional_keys__, cls.__required_keys__ = cls.__required_keys__, frozenset()
        return cls

    def __mro_entries__(self, bases):
        return (_TypedDictBase,)

    def __repr__(self):
        return '<function TypedDict>'


TypedDict = _TypedDictFactory()


class NewType(_Final):
    def __init__(self, name, tp):
        self.__name__ = name
        self.__qualname__ = name
        self.__supertype__ = tp
        self.__module__ = '__main__'

    def __call__(self, x):
        return x

    def __repr__(self):
        return self.__module__ + '.' + self.__qualname__


# ---- introspection ------------------------------------------------------------------------

def get_origin(tp):
    if isinstance(tp, _AnnotatedAlias):
        return Annotated
    if isinstance(tp, (_GenericAlias, _SpecialGenericAlias, _ParamSpecPart)):
        return tp.__origin__
    if tp is Generic:
        return Generic
    return None


def get_args(tp):
    if isinstance(tp, _AnnotatedAlias):
        return (tp.__origin__,) + tp.__metadata__
    if isinstance(tp, _CallableGenericAlias):
        params = tp.__args__[:-1]
        if len(params) == 1 and (params[0] is ... or isinstance(params[0], ParamSpec)):
            return tp.__args__
        return (list(params), tp.__args__[-1])
    if isinstance(tp, _GenericAlias):
        return tp.__args__
    return ()


def _strip_annotated(tp):
    if isinstance(tp, _AnnotatedAlias):
        return _strip_annotated(tp.__origin__)
    if isinstance(tp, _GenericAlias) and tp.__args__:
        args = tuple(_strip_annotated(a) for a in tp.__args__)
        if args != tp.__args__:
            return tp.copy_with(args)
    return tp


def _resolve_hint(value, globalns, localns):
    value = _type_convert(value)
    if isinstance(value, ForwardRef):
        # Kiln cannot evaluate source text: a forward reference resolves as a name.
        name = value.__forward_arg__
        for ns in (localns, globalns):
            if ns is not None and name in ns:
                return _type_convert(ns[name])
        raise NameError("name '" + name + "' is not defined")
    return value


def get_type_hints(obj, globalns=None, localns=None, include_extras=False):
    if isinstance(obj, type):
        sources = [getattr(base, '__annotations__', {}) for base in reversed(obj.__mro__)]
    else:
        sources = [getattr(obj, '__annotations__', None)]
        if sources[0] is None:
            raise TypeError(repr(obj) + ' is not a module, class, method, or function.')
    hints = {}
    for ann in sources:
        for name, value in ann.items():
            value = _resolve_hint(value, globalns, localns)
            hints[name] = value if include_extras else _strip_annotated(value)
    return hints


# ---- decorators and helpers ---------------------------------------------------------------

def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(f):
    return f


def assert_never(arg):
    raise AssertionError('Expected code to be unreachable, but got: ' + repr(arg))


def reveal_type(obj):
    return obj
