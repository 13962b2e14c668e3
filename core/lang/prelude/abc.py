# abc: ABC and abstractmethod. Instantiating a subclass of ABC that leaves an
# abstract method unimplemented raises CPython's TypeError (ABC's __new__
# does the check CPython's object.__new__ does). Kiln has no metaclasses:
# ABCMeta exists only as a name, and register() is not supported.

_abstract = {}


def abstractmethod(funcobj):
    _abstract[id(funcobj)] = funcobj
    return funcobj


def _is_abstract(value):
    if id(value) in _abstract:
        return True
    fget = getattr(value, 'fget', None) if isinstance(value, property) else None
    return fget is not None and id(fget) in _abstract


def _abstract_names(cls):
    seen = set()
    names = []
    c = cls
    while c is not None and c is not object:
        for name, value in vars(c).items():
            if name not in seen:
                seen.add(name)
                if _is_abstract(value):
                    names.append(name)
        c = c.__base__
    return sorted(names)


class ABC:
    def __new__(cls, *args, **kwargs):
        names = _abstract_names(cls)
        if names:
            raise TypeError("Can't instantiate abstract class " + cls.__name__ + ' with abstract method'
                            + ('s ' if len(names) > 1 else ' ') + ', '.join(names))
        return object.__new__(cls)


ABCMeta = ABC
