# dataclasses: @dataclass for the config classes model scripts declare
# (`n_layer: int = 4`), with CPython's generated __init__, __repr__ and
# __eq__, frozen and order options, field(), fields(), asdict(), astuple(),
# replace() and is_dataclass(). Fields come from the class's own
# `__annotations__` (the compiler keeps them for class bodies), after the
# fields of a dataclass base.


class _MISSING_TYPE:
    def __repr__(self):
        return 'MISSING'


MISSING = _MISSING_TYPE()


class FrozenInstanceError(AttributeError):
    pass


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
        self.metadata = metadata
        self.kw_only = kw_only

    def __repr__(self):
        return ('Field(name=' + repr(self.name) + ',type=' + repr(self.type) + ',default=' + repr(self.default) +
                ',default_factory=' + repr(self.default_factory) + ',init=' + repr(self.init) + ',repr=' +
                repr(self.repr) + ',hash=' + repr(self.hash) + ',compare=' + repr(self.compare) + ')')


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


def _is_classvar(tp):
    if isinstance(tp, str):
        return tp.startswith('ClassVar') or tp.startswith('typing.ClassVar')
    return repr(tp).startswith('typing.ClassVar')


def _is_mutable_default(v):
    return isinstance(v, (list, dict, set))


def _collect_fields(cls):
    fields_ = {}
    for base in cls.__bases__:
        base_fields = getattr(base, '__dataclass_fields__', None)
        if base_fields is not None:
            for name, f in base_fields.items():
                fields_[name] = f
    for name, tp in _own_annotations(cls).items():
        if _is_classvar(tp):
            continue
        default = getattr(cls, name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            f = field(default=default)
        f.name = name
        f.type = tp
        if _is_mutable_default(f.default):
            raise ValueError('mutable default ' + repr(type(f.default)) + ' for field ' + name +
                             ' is not allowed: use default_factory')
        # The class attribute becomes the plain default, or goes away.
        if isinstance(default, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        fields_[name] = f
    return fields_


def _check_order(init_fields):
    seen_default = False
    for f in init_fields:
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if has_default:
            seen_default = True
        elif seen_default:
            raise TypeError('non-default argument ' + repr(f.name) + ' follows default argument')


def _missing_message(qualname, names):
    quoted = [repr(n) for n in names]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) == 2:
        listed = quoted[0] + ' and ' + quoted[1]
    else:
        listed = ', '.join(quoted[:-1]) + ', and ' + quoted[-1]
    plural = 'argument' if len(names) == 1 else 'arguments'
    return qualname + '.__init__() missing ' + str(len(names)) + ' required positional ' + plural + ': ' + listed


def _bind(qualname, init_fields, args, kwargs):
    if len(args) > len(init_fields):
        n_required = len([f for f in init_fields if f.default is MISSING and f.default_factory is MISSING])
        if n_required == len(init_fields):
            takes = str(len(init_fields) + 1)
        else:
            takes = 'from ' + str(n_required + 1) + ' to ' + str(len(init_fields) + 1)
        raise TypeError(qualname + '.__init__() takes ' + takes + ' positional arguments but ' +
                        str(len(args) + 1) + ' were given')
    names = [f.name for f in init_fields]
    for k in kwargs:
        if k not in names:
            raise TypeError(qualname + ".__init__() got an unexpected keyword argument '" + k + "'")
    values = {}
    missing = []
    for i in range(len(init_fields)):
        f = init_fields[i]
        if i < len(args):
            if f.name in kwargs:
                raise TypeError(qualname + ".__init__() got multiple values for argument '" + f.name + "'")
            values[f.name] = args[i]
        elif f.name in kwargs:
            values[f.name] = kwargs[f.name]
        elif f.default is not MISSING:
            values[f.name] = f.default
        elif f.default_factory is not MISSING:
            values[f.name] = f.default_factory()
        else:
            missing.append(f.name)
    if missing:
        raise TypeError(_missing_message(qualname, missing))
    return values


def _make_init(cls, flds):
    init_fields = [f for f in flds if f.init]
    other_fields = [f for f in flds if not f.init]
    qualname = cls.__qualname__

    def __init__(self, *args, **kwargs):
        values = _bind(qualname, init_fields, args, kwargs)
        for f in init_fields:
            object.__setattr__(self, f.name, values[f.name])
        for f in other_fields:
            if f.default is not MISSING:
                object.__setattr__(self, f.name, f.default)
            elif f.default_factory is not MISSING:
                object.__setattr__(self, f.name, f.default_factory())
        post_init = getattr(self, '__post_init__', None)
        if post_init is not None:
            post_init()
    return __init__


def _make_repr(flds):
    def __repr__(self):
        parts = [f.name + '=' + repr(getattr(self, f.name)) for f in flds if f.repr]
        return type(self).__qualname__ + '(' + ', '.join(parts) + ')'
    return __repr__


def _compared(obj, flds):
    return tuple([getattr(obj, f.name) for f in flds if f.compare])


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


def _frozen_setattr(self, name, value):
    raise FrozenInstanceError("cannot assign to field '" + name + "'")


def _frozen_delattr(self, name):
    raise FrozenInstanceError("cannot delete field '" + name + "'")


def _make_hash(flds):
    def __hash__(self):
        return hash(_compared(self, flds))
    return __hash__


def _process_class(cls, init, repr, eq, order, frozen, unsafe_hash):
    fields_ = _collect_fields(cls)
    flds = list(fields_.values())
    _check_order([f for f in flds if f.init])
    cls.__dataclass_fields__ = fields_
    if init:
        cls.__init__ = _make_init(cls, flds)
    if repr:
        cls.__repr__ = _make_repr(flds)
    if eq:
        cls.__eq__ = _make_eq(flds)
    if order:
        if not eq:
            raise ValueError('eq must be true if order is true')
        cls.__lt__ = _make_order(flds, '<')
        cls.__le__ = _make_order(flds, '<=')
        cls.__gt__ = _make_order(flds, '>')
        cls.__ge__ = _make_order(flds, '>=')
    if frozen:
        cls.__setattr__ = _frozen_setattr
        cls.__delattr__ = _frozen_delattr
    if unsafe_hash or (eq and frozen):
        cls.__hash__ = _make_hash(flds)
    elif eq:
        cls.__hash__ = None
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False):
    def wrap(c):
        return _process_class(c, init, repr, eq, order, frozen, unsafe_hash)
    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    return hasattr(obj, '__dataclass_fields__')


def fields(class_or_instance):
    flds = getattr(class_or_instance, '__dataclass_fields__', None)
    if flds is None:
        raise TypeError('must be called with a dataclass type or instance')
    return tuple(flds.values())


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
    if not is_dataclass(obj):
        raise TypeError('asdict() should be called on dataclass instances')
    return _as_value(obj, dict_factory)


def astuple(obj, *, tuple_factory=tuple):
    if not is_dataclass(obj):
        raise TypeError('astuple() should be called on dataclass instances')
    return tuple_factory([_as_value(getattr(obj, f.name), dict) for f in fields(obj)])


def replace(obj, **changes):
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
