# dataclasses: @dataclass for the config classes model scripts declare
# (`n_layer: int = 4`), as CPython 3.11's: the generated __init__ (positional
# fields, then keyword-only ones: kw_only=, field(kw_only=), `_: KW_ONLY`;
# InitVar pseudo-fields handed to __post_init__), __repr__, __eq__, order,
# frozen, the __hash__ rules, match_args and slots; what the class body
# defines itself is kept. field(), fields(), asdict(), astuple(), replace()
# and is_dataclass(). Fields come from the class's own `__annotations__` (the
# compiler keeps them for class bodies), after the fields of dataclass bases.
# The generated __init__ binds its arguments itself (Kiln has no exec), with
# CPython's messages.

import types as _types


class _MISSING_TYPE:
    pass


MISSING = _MISSING_TYPE()


# The annotation `_: KW_ONLY` makes the fields after it keyword-only.
class _KW_ONLY_TYPE:
    pass


KW_ONLY = _KW_ONLY_TYPE()


class FrozenInstanceError(AttributeError):
    pass


# A field's kind: a real field, a ClassVar (no field at all to fields()), or an
# InitVar (a parameter of __init__ handed to __post_init__, never stored).
class _FIELD_BASE:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


_FIELD = _FIELD_BASE('_FIELD')
_FIELD_CLASSVAR = _FIELD_BASE('_FIELD_CLASSVAR')
_FIELD_INITVAR = _FIELD_BASE('_FIELD_INITVAR')


class InitVar:
    def __init__(self, type):
        self.type = type

    def __repr__(self):
        if isinstance(self.type, type):
            type_name = self.type.__name__
        else:
            type_name = repr(self.type)
        return 'dataclasses.InitVar[' + type_name + ']'

    def __class_getitem__(cls, type):
        return InitVar(type)


_EMPTY_METADATA = _types.MappingProxyType({})


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = _EMPTY_METADATA if metadata is None else _types.MappingProxyType(metadata)
        self.kw_only = kw_only
        self._field_type = None

    def __repr__(self):
        return ('Field(name=' + repr(self.name) + ',type=' + repr(self.type) + ',default=' + repr(self.default) +
                ',default_factory=' + repr(self.default_factory) + ',init=' + repr(self.init) + ',repr=' +
                repr(self.repr) + ',hash=' + repr(self.hash) + ',compare=' + repr(self.compare) + ',metadata=' +
                repr(self.metadata) + ',kw_only=' + repr(self.kw_only) + ',_field_type=' + str(self._field_type) +
                ')')


class _DataclassParams:
    def __init__(self, init, repr, eq, order, unsafe_hash, frozen):
        self.init = init
        self.repr = repr
        self.eq = eq
        self.order = order
        self.unsafe_hash = unsafe_hash
        self.frozen = frozen

    def __repr__(self):
        return ('_DataclassParams(init=' + repr(self.init) + ',repr=' + repr(self.repr) + ',eq=' + repr(self.eq) +
                ',order=' + repr(self.order) + ',unsafe_hash=' + repr(self.unsafe_hash) + ',frozen=' +
                repr(self.frozen) + ')')


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _own_annotations(cls):
    ann = getattr(cls, '__annotations__', None)
    if ann is None:
        return {}
    for base in cls.__bases__:
        if getattr(base, '__annotations__', None) is ann:
            return {}  # inherited, not the class's own
    return ann


# An annotation, or its string form (from __future__ import annotations), naming typing.ClassVar,
# dataclasses.InitVar or dataclasses.KW_ONLY.
def _names(tp, names):
    if not isinstance(tp, str):
        return False
    for n in names:
        if tp == n or tp.startswith(n + '['):
            return True
    return False


def _is_classvar(tp):
    if isinstance(tp, str):
        return _names(tp, ('ClassVar', 'typing.ClassVar'))
    return repr(tp).startswith('typing.ClassVar')


def _is_initvar(tp):
    return tp is InitVar or isinstance(tp, InitVar) or _names(tp, ('InitVar', 'dataclasses.InitVar'))


def _is_kw_only(tp):
    return tp is KW_ONLY or _names(tp, ('KW_ONLY', 'dataclasses.KW_ONLY'))


# CPython's test is type(default).__hash__ is None (list, dict, set, a class with __eq__ alone).
def _unhashable_default(v):
    if isinstance(v, (list, dict, set)) or getattr(type(v), '__hash__', 0) is None:
        return True
    if isinstance(v, tuple):
        return False
    try:
        hash(v)
    except TypeError:
        return True
    return False


def _get_field(cls, name, tp, default_kw_only):
    default = getattr(cls, name, MISSING)
    if isinstance(default, Field):
        f = default
    else:
        f = field(default=default)
    f.name = name
    f.type = tp
    f._field_type = _FIELD
    if _is_classvar(tp):
        f._field_type = _FIELD_CLASSVAR
    elif _is_initvar(tp):
        f._field_type = _FIELD_INITVAR
    if f._field_type is not _FIELD and f.default_factory is not MISSING:
        raise TypeError('field ' + name + ' cannot have a default factory')
    if f._field_type is _FIELD_CLASSVAR:
        if f.kw_only is not MISSING:
            raise TypeError('field ' + name + ' is a ClassVar but specifies kw_only')
    elif f.kw_only is MISSING:
        f.kw_only = default_kw_only
    if f._field_type is _FIELD and _unhashable_default(f.default):
        raise ValueError('mutable default ' + repr(type(f.default)) + ' for field ' + name +
                         ' is not allowed: use default_factory')
    return f


def _collect_fields(cls, kw_only):
    fields_ = {}
    any_frozen_base = False
    has_dataclass_bases = False
    for b in cls.__mro__[-1:0:-1]:
        base_fields = getattr(b, '__dataclass_fields__', None)
        if base_fields is not None:
            has_dataclass_bases = True
            for f in base_fields.values():
                fields_[f.name] = f
            if b.__dataclass_params__.frozen:
                any_frozen_base = True
    cls_annotations = _own_annotations(cls)
    cls_fields = []
    kw_only_seen = False
    for name, tp in cls_annotations.items():
        if _is_kw_only(tp):
            if kw_only_seen:
                raise TypeError(repr(name) + ' is KW_ONLY, but KW_ONLY has already been specified')
            kw_only_seen = True
            kw_only = True
        else:
            cls_fields.append(_get_field(cls, name, tp, kw_only))
    for f in cls_fields:
        fields_[f.name] = f
        # The class attribute becomes the plain default, or goes away.
        if isinstance(getattr(cls, f.name, None), Field):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    for name, value in vars(cls).items():
        if isinstance(value, Field) and name not in cls_annotations:
            raise TypeError(repr(name) + ' is a field but has no type annotation')
    return fields_, has_dataclass_bases, any_frozen_base


def _has_default(f):
    return f.default is not MISSING or f.default_factory is not MISSING


def _check_order(std_fields):
    seen_default = False
    for f in std_fields:
        if not f.init:
            continue
        if _has_default(f):
            seen_default = True
        elif seen_default:
            raise TypeError('non-default argument ' + repr(f.name) + ' follows default argument')


def _listed(names):
    quoted = [repr(n) for n in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return quoted[0] + ' and ' + quoted[1]
    return ', '.join(quoted[:-1]) + ', and ' + quoted[-1]


def _plural(n, word):
    return str(n) + ' ' + word + ('' if n == 1 else 's')


# CPython's messages for a call of the generated
# __init__(self, <positional fields>, *, <keyword-only fields>).
def _bind(qualname, std_fields, kw_fields, args, kwargs):
    if len(args) > len(std_fields):
        n_required = len([f for f in std_fields if not _has_default(f)])
        kw_given = len([f for f in kw_fields if f.name in kwargs])
        if n_required == len(std_fields):
            takes = _plural(len(std_fields) + 1, 'positional argument')
        else:
            takes = 'from ' + str(n_required + 1) + ' to ' + str(len(std_fields) + 1) + ' positional arguments'
        given = str(len(args) + 1)
        if kw_given:
            given += ' positional arguments (and ' + _plural(kw_given, 'keyword-only argument') + ')'
        raise TypeError(qualname + '.__init__() takes ' + takes + ' but ' + given + ' were given')
    names = [f.name for f in std_fields] + [f.name for f in kw_fields]
    for k in kwargs:
        if k not in names:
            raise TypeError(qualname + ".__init__() got an unexpected keyword argument '" + k + "'")
    values = {}
    for i in range(len(args)):
        if std_fields[i].name in kwargs:
            raise TypeError(qualname + ".__init__() got multiple values for argument '" + std_fields[i].name + "'")
        values[std_fields[i].name] = args[i]
    # The rest from the keywords or the defaults; the positional ones are missed first.
    for flds, kind in ((std_fields[len(args):], 'positional'), (kw_fields, 'keyword-only')):
        missing = []
        for f in flds:
            if f.name in kwargs:
                values[f.name] = kwargs[f.name]
            elif f.default is not MISSING:
                values[f.name] = f.default
            elif f.default_factory is not MISSING:
                values[f.name] = f.default_factory()
            else:
                missing.append(f.name)
        if missing:
            raise TypeError(qualname + '.__init__() missing ' +
                            _plural(len(missing), 'required ' + kind + ' argument') + ': ' + _listed(missing))
    return values


def _make_init(cls, all_fields, frozen, slots):
    # The parameters: the init fields (InitVars included), positional ones
    # first, then the keyword-only ones; the assignments in field order.
    init_fields = [f for f in all_fields if f.init]
    std_fields = [f for f in init_fields if not f.kw_only]
    kw_fields = [f for f in init_fields if f.kw_only]
    _check_order(std_fields)
    initvars = [f.name for f in all_fields if f._field_type is _FIELD_INITVAR]
    has_post_init = hasattr(cls, '__post_init__')
    qualname = cls.__qualname__

    def __init__(self, *args, **kwargs):
        values = _bind(qualname, std_fields, kw_fields, args, kwargs)
        for f in all_fields:
            if f._field_type is _FIELD_INITVAR:
                continue
            if f.init:
                value = values[f.name]
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            elif slots and f.default is not MISSING:
                value = f.default
            else:
                continue  # reads find the class attribute
            if frozen:
                object.__setattr__(self, f.name, value)
            else:
                setattr(self, f.name, value)
        if has_post_init:
            self.__post_init__(*[values[n] for n in initvars])
    return __init__


def _make_repr(flds):
    def __repr__(self):
        parts = [f.name + '=' + repr(getattr(self, f.name)) for f in flds]
        return type(self).__qualname__ + '(' + ', '.join(parts) + ')'
    return __repr__


def _compared(obj, flds):
    return tuple([getattr(obj, f.name) for f in flds])


def _make_eq(flds):
    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return _compared(self, flds) == _compared(other, flds)
    return __eq__


def _make_order(flds, op):
    def compare(self, other):
        if type(other) is not type(self):
            return NotImplemented
        a = _compared(self, flds)
        b = _compared(other, flds)
        if op == '<':
            return a < b
        if op == '<=':
            return a <= b
        if op == '>':
            return a > b
        return a >= b
    return compare


# Only the dataclass itself and its fields are frozen: a subclass sets attributes of its own.
def _make_frozen(cls, flds):
    names = tuple([f.name for f in flds])

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError('cannot assign to field ' + repr(name))
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError('cannot delete field ' + repr(name))
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _make_hash(flds):
    def __hash__(self):
        return hash(_compared(self, flds))
    return __hash__


# CPython's _set_new_attribute: what the class body defines stays. True when it did.
def _set_new_attribute(cls, name, value):
    if name in vars(cls):
        return True
    setattr(cls, name, value)
    return False


def _add_slots(cls, field_names, frozen):
    cls_dict = dict(vars(cls))
    if '__slots__' in cls_dict:
        raise TypeError(cls.__name__ + ' already specifies __slots__')
    inherited = set()
    for b in cls.__mro__[1:-1]:
        slots = vars(b).get('__slots__', ())
        inherited.update([slots] if isinstance(slots, str) else slots)
    cls_dict['__slots__'] = tuple([n for n in field_names if n not in inherited])
    for n in field_names:
        cls_dict.pop(n, None)
    cls_dict.pop('__dict__', None)
    cls_dict.pop('__weakref__', None)
    qualname = cls.__qualname__
    cls = type(cls)(cls.__name__, cls.__bases__, cls_dict)
    cls.__qualname__ = qualname
    if frozen:
        if '__getstate__' not in cls_dict:
            cls.__getstate__ = _dataclass_getstate
        if '__setstate__' not in cls_dict:
            cls.__setstate__ = _dataclass_setstate
    return cls


def _dataclass_getstate(self):
    return [getattr(self, f.name) for f in fields(self)]


def _dataclass_setstate(self, state):
    for f, value in zip(fields(self), state):
        object.__setattr__(self, f.name, value)


def _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots):
    cls.__dataclass_params__ = _DataclassParams(init, repr, eq, order, unsafe_hash, frozen)
    fields_, has_dataclass_bases, any_frozen_base = _collect_fields(cls, kw_only)
    if has_dataclass_bases:
        if any_frozen_base and not frozen:
            raise TypeError('cannot inherit non-frozen dataclass from a frozen one')
        if not any_frozen_base and frozen:
            raise TypeError('cannot inherit frozen dataclass from a non-frozen one')
    cls.__dataclass_fields__ = fields_
    own = vars(cls)
    class_hash = own.get('__hash__', MISSING)
    has_explicit_hash = not (class_hash is MISSING or (class_hash is None and '__eq__' in own))
    if order and not eq:
        raise ValueError('eq must be true if order is true')
    all_init = [f for f in fields_.values() if f._field_type is not _FIELD_CLASSVAR]
    if init:
        _set_new_attribute(cls, '__init__', _make_init(cls, all_init, frozen, slots))
    flds = [f for f in fields_.values() if f._field_type is _FIELD]
    if repr:
        _set_new_attribute(cls, '__repr__', _make_repr([f for f in flds if f.repr]))
    compared = [f for f in flds if f.compare]
    if eq:
        _set_new_attribute(cls, '__eq__', _make_eq(compared))
    if order:
        for name, op in (('__lt__', '<'), ('__le__', '<='), ('__gt__', '>'), ('__ge__', '>=')):
            if _set_new_attribute(cls, name, _make_order(compared, op)):
                raise TypeError('Cannot overwrite attribute ' + name + ' in class ' + cls.__name__ +
                                '. Consider using functools.total_ordering')
    if frozen:
        setter, deleter = _make_frozen(cls, flds)
        for name, fn in (('__setattr__', setter), ('__delattr__', deleter)):
            if _set_new_attribute(cls, name, fn):
                raise TypeError('Cannot overwrite attribute ' + name + ' in class ' + cls.__name__)
    # CPython's __hash__ table over (unsafe_hash, eq, frozen, has_explicit_hash).
    if unsafe_hash and has_explicit_hash:
        raise TypeError('Cannot overwrite attribute __hash__ in class ' + cls.__name__)
    if not has_explicit_hash:
        hashed = [f for f in flds if (f.compare if f.hash is None else f.hash)]
        if unsafe_hash or (eq and frozen):
            cls.__hash__ = _make_hash(hashed)
        elif eq:
            cls.__hash__ = None
    if match_args:
        _set_new_attribute(cls, '__match_args__',
                           tuple([f.name for f in all_init if f.init and not f.kw_only]))
    if slots:
        cls = _add_slots(cls, [f.name for f in flds], frozen)
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False):
    def wrap(c):
        return _process_class(c, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots)
    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    return hasattr(obj, '__dataclass_fields__')


def fields(class_or_instance):
    flds = getattr(class_or_instance, '__dataclass_fields__', None)
    if flds is None:
        raise TypeError('must be called with a dataclass type or instance')
    return tuple([f for f in flds.values() if f._field_type is _FIELD])


def _as_value(v, factory):
    if is_dataclass(v) and not isinstance(v, type):
        return factory([(f.name, _as_value(getattr(v, f.name), factory)) for f in fields(v)])
    if isinstance(v, list):
        return [_as_value(x, factory) for x in v]
    if isinstance(v, tuple):
        return tuple([_as_value(x, factory) for x in v])
    if isinstance(v, dict):
        return {_as_value(k, factory): _as_value(x, factory) for k, x in v.items()}
    return v


def asdict(obj, *, dict_factory=dict):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError('asdict() should be called on dataclass instances')
    return _as_value(obj, dict_factory)


def astuple(obj, *, tuple_factory=tuple):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError('astuple() should be called on dataclass instances')
    return tuple_factory([_as_value(getattr(obj, f.name), dict) for f in fields(obj)])


def replace(obj, **changes):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError('replace() should be called on dataclass instances')
    for f in obj.__dataclass_fields__.values():
        if f._field_type is _FIELD_CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                raise ValueError('field ' + f.name + ' is declared with init=False, it cannot be specified with '
                                 'replace()')
            continue
        if f.name not in changes:
            if f._field_type is _FIELD_INITVAR and f.default is MISSING:
                raise ValueError('InitVar ' + repr(f.name) + ' must be specified with replace()')
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
