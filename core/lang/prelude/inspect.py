# inspect: signature() with Signature, Parameter and BoundArguments,
# getfullargspec, getmembers and the is* predicates, built on what functions
# carry (__code__, __defaults__, __kwdefaults__, __annotations__,
# __wrapped__); `/` is not in the subset, so there are no positional-only
# parameters.

import enum
import types
from collections import OrderedDict, namedtuple

_CO_VARARGS = 4
_CO_VARKEYWORDS = 8
_CO_GENERATOR = 32


class _empty:
    pass


class _void:
    pass


class _ParameterKind(enum.IntEnum):
    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    VAR_POSITIONAL = 2
    KEYWORD_ONLY = 3
    VAR_KEYWORD = 4

    def __str__(self):
        return self._name_

    @property
    def description(self):
        return ('positional-only', 'positional or keyword', 'variadic positional',
                'keyword-only', 'variadic keyword')[self]


_POSITIONAL_ONLY = _ParameterKind.POSITIONAL_ONLY
_POSITIONAL_OR_KEYWORD = _ParameterKind.POSITIONAL_OR_KEYWORD
_VAR_POSITIONAL = _ParameterKind.VAR_POSITIONAL
_KEYWORD_ONLY = _ParameterKind.KEYWORD_ONLY
_VAR_KEYWORD = _ParameterKind.VAR_KEYWORD


def formatannotation(annotation):
    if getattr(annotation, '__module__', None) == 'typing':
        return repr(annotation).replace('typing.', '')
    if isinstance(annotation, type):
        if annotation.__module__ == 'builtins':
            return annotation.__qualname__
        return annotation.__module__ + '.' + annotation.__qualname__
    return repr(annotation)


class Parameter:
    empty = _empty
    POSITIONAL_ONLY = _POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = _POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = _VAR_POSITIONAL
    KEYWORD_ONLY = _KEYWORD_ONLY
    VAR_KEYWORD = _VAR_KEYWORD

    def __init__(self, name, kind, *, default=_empty, annotation=_empty):
        try:
            self._kind = _ParameterKind(kind)
        except ValueError:
            raise ValueError(f'value {kind!r} is not a valid Parameter.kind')
        if default is not _empty and self._kind in (_VAR_POSITIONAL, _VAR_KEYWORD):
            raise ValueError(f'{self._kind.description} parameters cannot have default values')
        if not isinstance(name, str):
            raise TypeError('name must be a str, not a ' + type(name).__name__)
        if not name.isidentifier():
            raise ValueError(f'{name!r} is not a valid parameter name')
        self._name = name
        self._default = default
        self._annotation = annotation

    @property
    def name(self):
        return self._name

    @property
    def kind(self):
        return self._kind

    @property
    def default(self):
        return self._default

    @property
    def annotation(self):
        return self._annotation

    def replace(self, *, name=_void, kind=_void, default=_void, annotation=_void):
        return type(self)(self._name if name is _void else name,
                          self._kind if kind is _void else kind,
                          default=self._default if default is _void else default,
                          annotation=self._annotation if annotation is _void else annotation)

    def __str__(self):
        text = self._name
        if self._annotation is not _empty:
            text += ': ' + formatannotation(self._annotation)
        if self._default is not _empty:
            text += (' = ' if self._annotation is not _empty else '=') + repr(self._default)
        if self._kind == _VAR_POSITIONAL:
            return '*' + text
        if self._kind == _VAR_KEYWORD:
            return '**' + text
        return text

    def __repr__(self):
        return '<' + type(self).__name__ + ' "' + str(self) + '">'

    def __hash__(self):
        return hash((self._name, int(self._kind), self._annotation, self._default))

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, Parameter):
            return NotImplemented
        return (self._name == other._name and self._kind == other._kind and
                self._default == other._default and self._annotation == other._annotation)


class BoundArguments:
    def __init__(self, signature, arguments):
        self.arguments = arguments
        self._signature = signature

    @property
    def signature(self):
        return self._signature

    @property
    def args(self):
        args = []
        for name, param in self._signature.parameters.items():
            if param.kind in (_VAR_KEYWORD, _KEYWORD_ONLY) or name not in self.arguments:
                break
            if param.kind == _VAR_POSITIONAL:
                args.extend(self.arguments[name])
            else:
                args.append(self.arguments[name])
        return tuple(args)

    @property
    def kwargs(self):
        # Keywords start at the first keyword-only parameter, or at the first
        # positional one left unbound (later ones can then only go by name).
        kwargs = {}
        started = False
        for name, param in self._signature.parameters.items():
            if not started:
                if param.kind in (_VAR_KEYWORD, _KEYWORD_ONLY):
                    started = True
                elif name not in self.arguments:
                    started = True
                    continue
            if not started or name not in self.arguments:
                continue
            if param.kind == _VAR_KEYWORD:
                kwargs.update(self.arguments[name])
            else:
                kwargs[name] = self.arguments[name]
        return kwargs

    def apply_defaults(self):
        filled = {}
        for name, param in self._signature.parameters.items():
            if name in self.arguments:
                filled[name] = self.arguments[name]
            elif param.default is not _empty:
                filled[name] = param.default
            elif param.kind == _VAR_POSITIONAL:
                filled[name] = ()
            elif param.kind == _VAR_KEYWORD:
                filled[name] = {}
        self.arguments = filled

    def __eq__(self, other):
        if not isinstance(other, BoundArguments):
            return NotImplemented
        return self._signature == other._signature and self.arguments == other.arguments

    def __repr__(self):
        items = [name + '=' + repr(value) for name, value in self.arguments.items()]
        return '<' + type(self).__name__ + ' (' + ', '.join(items) + ')>'


def _check_order(params):
    seen = {}
    top = _POSITIONAL_ONLY
    seen_default = False
    for param in params:
        if param.kind < top:
            raise ValueError('wrong parameter order: ' + top.description + ' parameter before ' +
                             param.kind.description + ' parameter')
        top = param.kind
        if param.kind in (_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD):
            if param.default is _empty and seen_default:
                raise ValueError('non-default argument follows default argument')
            seen_default = seen_default or param.default is not _empty
        if param.name in seen:
            raise ValueError(f'duplicate parameter name: {param.name!r}')
        seen[param.name] = param
    return seen


class Signature:
    empty = _empty

    def __init__(self, parameters=None, *, return_annotation=_empty, __validate_parameters__=True):
        params = list(parameters) if parameters is not None else []
        if __validate_parameters__:
            self._parameters = _check_order(params)
        else:
            self._parameters = {p.name: p for p in params}
        self._return_annotation = return_annotation

    @classmethod
    def from_callable(cls, obj, *, follow_wrapped=True):
        return signature(obj, follow_wrapped=follow_wrapped)

    @property
    def parameters(self):
        return types.MappingProxyType(OrderedDict(self._parameters))

    @property
    def return_annotation(self):
        return self._return_annotation

    def replace(self, *, parameters=_void, return_annotation=_void):
        return type(self)(list(self._parameters.values()) if parameters is _void else parameters,
                          return_annotation=self._return_annotation if return_annotation is _void
                          else return_annotation)

    def bind(self, *args, **kwargs):
        return self._bind(args, kwargs, False)

    def bind_partial(self, *args, **kwargs):
        return self._bind(args, kwargs, True)

    def _bind(self, args, kwargs, partial):
        kwargs = dict(kwargs)
        arguments = {}
        used = 0
        var_keyword = None
        for param in self._parameters.values():
            name = param.name
            if param.kind == _VAR_POSITIONAL:
                if used < len(args):
                    arguments[name] = tuple(args[used:])
                    used = len(args)
            elif param.kind == _VAR_KEYWORD:
                var_keyword = name
            elif param.kind != _KEYWORD_ONLY and used < len(args):
                if param.kind == _POSITIONAL_OR_KEYWORD and name in kwargs:
                    raise TypeError(f'multiple values for argument {name!r}')
                arguments[name] = args[used]
                used += 1
            elif name in kwargs and param.kind != _POSITIONAL_ONLY:
                arguments[name] = kwargs.pop(name)
            elif param.default is _empty and not partial:
                raise TypeError(f'missing a required argument: {name!r}')
        if used < len(args):
            raise TypeError('too many positional arguments')
        if kwargs:
            if var_keyword is None:
                raise TypeError(f'got an unexpected keyword argument {next(iter(kwargs))!r}')
            arguments[var_keyword] = kwargs
        return BoundArguments(self, arguments)

    def __str__(self):
        parts = []
        star_needed = True
        for param in self._parameters.values():
            if param.kind == _VAR_POSITIONAL:
                star_needed = False
            elif param.kind == _KEYWORD_ONLY and star_needed:
                parts.append('*')
                star_needed = False
            parts.append(str(param))
        text = '(' + ', '.join(parts) + ')'
        if self._return_annotation is not _empty:
            text += ' -> ' + formatannotation(self._return_annotation)
        return text

    def __repr__(self):
        return '<' + type(self).__name__ + ' ' + str(self) + '>'

    def __hash__(self):
        return hash((tuple(self._parameters.values()), self._return_annotation))

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, Signature):
            return NotImplemented
        return (self._return_annotation == other._return_annotation and
                list(self._parameters.values()) == list(other._parameters.values()))


FullArgSpec = namedtuple('FullArgSpec', 'args, varargs, varkw, defaults, kwonlyargs, kwonlydefaults, annotations')


# ---- predicates -------------------------------------------------------------

def isclass(obj):
    return isinstance(obj, type)


def isfunction(obj):
    return type(obj) is types.FunctionType


def ismethod(obj):
    return type(obj) is types.MethodType


def ismodule(obj):
    return type(obj) is types.ModuleType


def isbuiltin(obj):
    return type(obj) is types.BuiltinFunctionType


def isroutine(obj):
    return isfunction(obj) or ismethod(obj) or isbuiltin(obj)


def isgeneratorfunction(obj):
    while ismethod(obj):
        obj = obj.__func__
    return isfunction(obj) and bool(obj.__code__.co_flags & _CO_GENERATOR)


def iscoroutinefunction(obj):
    return False


def isgenerator(obj):
    return type(obj) is types.GeneratorType


def isabstract(obj):
    return bool(getattr(obj, '__abstractmethods__', False))


def getmro(cls):
    return cls.__mro__


def getmembers(obj, predicate=None):
    members = []
    for name in dir(obj):
        try:
            value = getattr(obj, name)
        except AttributeError:
            continue
        if predicate is None or predicate(value):
            members.append((name, value))
    members.sort(key=lambda pair: pair[0])
    return members


def unwrap(func, *, stop=None):
    seen = {id(func)}
    while hasattr(func, '__wrapped__') and not (stop is not None and stop(func)):
        func = func.__wrapped__
        if id(func) in seen:
            raise ValueError(f'wrapper loop when unwrapping {func!r}')
        seen.add(id(func))
    return func


def cleandoc(doc):
    lines = doc.expandtabs().split('\n')
    margin = None
    for line in lines[1:]:
        content = len(line.lstrip())
        if content:
            indent = len(line) - content
            margin = indent if margin is None else min(margin, indent)
    if margin is not None:
        lines = lines[:1] + [line[margin:] for line in lines[1:]]
    lines[0] = lines[0].lstrip()
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return '\n'.join(lines)


def getdoc(obj):
    doc = getattr(obj, '__doc__', None)
    return cleandoc(doc) if isinstance(doc, str) else None


# ---- signature() ------------------------------------------------------------

def _function_parameters(func):
    code = func.__code__
    names = code.co_varnames
    npos = code.co_argcount
    nkw = code.co_kwonlyargcount
    defaults = func.__defaults__ or ()
    kwdefaults = func.__kwdefaults__ or {}
    ann = getattr(func, '__annotations__', {})
    params = []
    first_default = npos - len(defaults)
    for i in range(npos):
        default = defaults[i - first_default] if i >= first_default else _empty
        params.append(Parameter(names[i], _POSITIONAL_OR_KEYWORD, default=default, annotation=ann.get(names[i], _empty)))
    at = npos + nkw
    if code.co_flags & _CO_VARARGS:
        params.append(Parameter(names[at], _VAR_POSITIONAL, annotation=ann.get(names[at], _empty)))
        at += 1
    for name in names[npos:npos + nkw]:
        params.append(Parameter(name, _KEYWORD_ONLY, default=kwdefaults.get(name, _empty),
                                annotation=ann.get(name, _empty)))
    if code.co_flags & _CO_VARKEYWORDS:
        params.append(Parameter(names[at], _VAR_KEYWORD, annotation=ann.get(names[at], _empty)))
    return params


def _drop_first(sig):
    params = list(sig.parameters.values())
    if not params or params[0].kind in (_VAR_POSITIONAL, _KEYWORD_ONLY):
        return sig
    if params[0].kind == _VAR_KEYWORD:
        raise ValueError('invalid method signature')
    return sig.replace(parameters=params[1:])


def _partial_signature(sig, partial):
    # Bound positionals disappear; a keyword the partial fixes becomes a
    # keyword-only parameter with that default, and so do the positional
    # parameters after it (they can only be passed by name now).
    params = list(sig.parameters.values())[len(partial.args):]
    out = []
    keyword_only = False
    for param in params:
        if param.name in partial.keywords and param.kind != _VAR_KEYWORD:
            keyword_only = True
            out.append(param.replace(kind=_KEYWORD_ONLY, default=partial.keywords[param.name]))
        elif keyword_only and param.kind == _POSITIONAL_OR_KEYWORD:
            out.append(param.replace(kind=_KEYWORD_ONLY))
        elif keyword_only and param.kind == _VAR_POSITIONAL:
            continue
        else:
            out.append(param)
    out.sort(key=lambda p: int(p.kind))
    return sig.replace(parameters=out)


def _user_method(cls, name):
    """The first definition of `name` along cls's MRO, if a Python function defines it."""
    for base in cls.__mro__:
        if name in base.__dict__:
            value = base.__dict__[name]
            return value if isfunction(value) else None
    return None


def _class_signature(cls, skip_bound_arg):
    for base in cls.__mro__:
        for name in ('__new__', '__init__'):
            if name in base.__dict__ and isfunction(base.__dict__[name]):
                sig = _signature(base.__dict__[name], True, skip_bound_arg)
                return _drop_first(sig) if skip_bound_arg else sig
    if cls.__module__ == 'builtins':
        raise ValueError(f'no signature found for builtin type {cls!r}')
    return Signature()


def _signature(obj, follow_wrapped, skip_bound_arg):
    if not callable(obj):
        raise TypeError(f'{obj!r} is not a callable object')
    if ismethod(obj):
        sig = _signature(obj.__func__, follow_wrapped, skip_bound_arg)
        return _drop_first(sig) if skip_bound_arg else sig
    if follow_wrapped:
        obj = unwrap(obj, stop=lambda f: hasattr(f, '__signature__'))
        if ismethod(obj):
            return _signature(obj, follow_wrapped, skip_bound_arg)
    explicit = getattr(obj, '__signature__', None)
    if explicit is not None:
        if not isinstance(explicit, Signature):
            raise TypeError(f'unexpected object {explicit!r} in __signature__ attribute')
        return explicit
    if isfunction(obj):
        return Signature(_function_parameters(obj), __validate_parameters__=False,
                         return_annotation=getattr(obj, '__annotations__', {}).get('return', _empty))
    if isbuiltin(obj):
        raise ValueError(f'no signature found for builtin {obj!r}')
    if type(obj).__name__ == 'partial' and hasattr(obj, 'func'):
        return _partial_signature(_signature(obj.func, follow_wrapped, skip_bound_arg), obj)
    if isclass(obj):
        return _class_signature(obj, skip_bound_arg)
    call = _user_method(type(obj), '__call__')
    if call is None:
        raise ValueError(f'callable {obj!r} is not supported by signature')
    sig = _signature(call, follow_wrapped, skip_bound_arg)
    return _drop_first(sig) if skip_bound_arg else sig


def signature(obj, *, follow_wrapped=True):
    return _signature(obj, follow_wrapped, True)


def getfullargspec(func):
    try:
        sig = _signature(func, False, False)
    except Exception:
        raise TypeError('unsupported callable')
    args, kwonlyargs, defaults, kwdefaults = [], [], [], {}
    varargs = varkw = None
    for param in sig.parameters.values():
        if param.kind == _POSITIONAL_OR_KEYWORD:
            args.append(param.name)
            if param.default is not _empty:
                defaults.append(param.default)
        elif param.kind == _VAR_POSITIONAL:
            varargs = param.name
        elif param.kind == _KEYWORD_ONLY:
            kwonlyargs.append(param.name)
            if param.default is not _empty:
                kwdefaults[param.name] = param.default
        else:
            varkw = param.name
    return FullArgSpec(args, varargs, varkw, tuple(defaults) or None, kwonlyargs, kwdefaults or None,
                       _argspec_annotations(sig))


def _argspec_annotations(sig):
    # getfullargspec lists the return annotation first.
    ann = {}
    if sig.return_annotation is not _empty:
        ann['return'] = sig.return_annotation
    for param in sig.parameters.values():
        if param.annotation is not _empty:
            ann[param.name] = param.annotation
    return ann
