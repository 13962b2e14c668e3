# types: SimpleNamespace (CPython's repr and equality) and the names of the
# built-in function and method types.

import sys


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
