# types: SimpleNamespace (CPython's repr and equality), MappingProxyType and
# the names of the built-in function and method types.

import sys
from collections import _DictView


class SimpleNamespace:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __repr__(self):
        name = 'namespace' if type(self) is SimpleNamespace else type(self).__name__
        items = ['%s=%r' % (k, v) for k, v in self.__dict__.items()]
        return name + '(' + ', '.join(items) + ')'

    def __getattr__(self, name):
        raise AttributeError("'types.SimpleNamespace' object has no attribute '" + name + "'")

    def __eq__(self, other):
        if not isinstance(other, SimpleNamespace):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __ne__(self, other):
        if not isinstance(other, SimpleNamespace):
            return NotImplemented
        return self.__dict__ != other.__dict__


# A read-only view of a mapping (dataclasses' Field.metadata, inspect's
# Signature.parameters; a class's __dict__ in CPython).
class mappingproxy(_DictView):
    def __init__(self, mapping):
        if not hasattr(mapping, 'keys') or not hasattr(mapping, '__getitem__') or isinstance(mapping, (list, tuple)):
            raise TypeError('mappingproxy() argument must be a mapping, not ' + type(mapping).__name__)
        self._d = mapping

    def __getitem__(self, key):
        return self._d[key]

    def __setitem__(self, key, value):
        raise TypeError("'mappingproxy' object does not support item assignment")

    def __delitem__(self, key):
        raise TypeError("'mappingproxy' object does not support item deletion")

    def __eq__(self, other):
        return self._d == (other._d if isinstance(other, mappingproxy) else other)

    def __or__(self, other):
        return dict(self._d) | (dict(other._d) if isinstance(other, mappingproxy) else other)

    def __repr__(self):
        return 'mappingproxy(' + repr(self._d) + ')'

    def __str__(self):
        return str(self._d)

    def copy(self):
        return self._d.copy()


MappingProxyType = mappingproxy


def _f():
    pass


class _C:
    def _m(self):
        pass


FunctionType = type(_f)
MethodType = type(_C()._m)


def _g():
    yield


GeneratorType = type(_g())
LambdaType = FunctionType
BuiltinFunctionType = type(len)
BuiltinMethodType = BuiltinFunctionType
ModuleType = type(sys)
NoneType = type(None)
