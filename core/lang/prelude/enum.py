# enum: Enum, IntEnum, StrEnum, auto and unique with CPython 3.11's reprs,
# lookups and errors. Kiln has no metaclasses: EnumType's methods act on the
# enum classes through __kiln_metaclass__, members are made when the class
# statement ends (Enum.__init_subclass__), and IntEnum/StrEnum members are
# not int/str instances but compare, hash and compute like them.


class auto:
    def __init__(self):
        self.value = None

    def __repr__(self):
        return 'auto(' + repr(self.value) + ')'


class EnumType:
    def __iter__(cls):
        return iter([cls._member_map_[name] for name in cls._member_names_])

    def __len__(cls):
        return len(cls._member_names_)

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __repr__(cls):
        return "<enum '" + cls.__name__ + "'>"


EnumMeta = EnumType


def _is_member_name(name, value):
    if name.startswith('_') or callable(value) and not isinstance(value, auto):
        return False
    return not isinstance(value, (property, staticmethod, classmethod))


class Enum:
    __kiln_metaclass__ = EnumType

    def __init_subclass__(cls):
        cls._member_names_ = []
        cls._member_map_ = {}
        cls._value2member_map_ = {}
        last_values = []
        for name, value in list(vars(cls).items()):
            if not _is_member_name(name, value):
                continue
            if isinstance(value, auto):
                value = cls._generate_next_value_(name, 1, len(last_values), last_values)
            last_values.append(value)
            _add_member(cls, name, value)
        cls.__members__ = cls._member_map_

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for v in reversed(last_values):
            try:
                return v + 1
            except TypeError:
                pass
        return start

    def __new__(cls, value):
        if isinstance(value, cls):
            return value
        for member_value, member in cls._value2member_map_.items():
            if member_value == value:
                return member
        raise ValueError(repr(value) + ' is not a valid ' + cls.__name__)

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return '<' + type(self).__name__ + '.' + self._name_ + ': ' + repr(self._value_) + '>'

    def __str__(self):
        return type(self).__name__ + '.' + self._name_

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return (type(self), (self._value_,))

    # Members are singletons: copies are the member itself.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _add_member(cls, name, value):
    for other in cls._member_map_.values():
        if other._value_ == value:
            cls._member_map_[name] = other
            setattr(cls, name, other)
            return
    member = object.__new__(cls)
    member._name_ = name
    member._value_ = value
    cls._member_names_.append(name)
    cls._member_map_[name] = member
    cls._value2member_map_[value] = member
    setattr(cls, name, member)


# Members of IntEnum and StrEnum stand for their values in comparisons,
# hashing and arithmetic.
class _ValueEnum(Enum):
    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)

    def __eq__(self, other):
        return self._value_ == (other._value_ if isinstance(other, Enum) else other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return self._value_ < _plain(other)

    def __le__(self, other):
        return self._value_ <= _plain(other)

    def __gt__(self, other):
        return self._value_ > _plain(other)

    def __ge__(self, other):
        return self._value_ >= _plain(other)

    def __hash__(self):
        return hash(self._value_)

    def __add__(self, other):
        return self._value_ + _plain(other)

    def __radd__(self, other):
        return _plain(other) + self._value_

    def __mul__(self, other):
        return self._value_ * _plain(other)

    def __rmul__(self, other):
        return _plain(other) * self._value_

    def __len__(self):
        return len(self._value_)


def _plain(x):
    return x._value_ if isinstance(x, Enum) else x


class IntEnum(_ValueEnum):
    def __sub__(self, other):
        return self._value_ - _plain(other)

    def __rsub__(self, other):
        return _plain(other) - self._value_

    def __truediv__(self, other):
        return self._value_ / _plain(other)

    def __floordiv__(self, other):
        return self._value_ // _plain(other)

    def __mod__(self, other):
        return self._value_ % _plain(other)

    def __neg__(self):
        return -self._value_

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __float__(self):
        return float(self._value_)


class StrEnum(_ValueEnum):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()

    def lower(self):
        return self._value_.lower()

    def upper(self):
        return self._value_.upper()


def unique(enumeration):
    duplicates = []
    for name, member in enumeration.__members__.items():
        if name != member._name_:
            duplicates.append((name, member._name_))
    if duplicates:
        details = ', '.join([alias + ' -> ' + name for alias, name in duplicates])
        raise ValueError('duplicate values found in ' + repr(enumeration) + ': ' + details)
    return enumeration
