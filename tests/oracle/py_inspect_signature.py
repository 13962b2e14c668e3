# inspect.signature and friends over functions, methods, classes, partials and
# wrapped functions; the function attributes they read (__code__, __defaults__,
# __kwdefaults__, __dict__, __wrapped__); class __mro__ and __dict__.
import functools
import inspect
import torch


class C:
    pass


class D:
    def __init__(self, a, b=1, *, c=2):
        self.a = a

    def m(self, x, y=3):
        return x

    @staticmethod
    def s(p, q):
        pass

    @classmethod
    def k(cls, z):
        pass

    def __call__(self, u, *rest):
        pass


class E(D):
    pass


def f(a, b=2, *args, c, d=4, **kw):
    pass


def show(sig):
    print(sig, list(sig.parameters), repr(sig))
    for p in sig.parameters.values():
        print(' ', p, repr(p), p.name, p.kind, p.kind.description, p.default is inspect.Parameter.empty)


for o in [D, E, D.m, D(1).m, D.s, D.k, f, lambda x, y=1: 0, D(1), functools.partial(f, 1, d=9)]:
    show(inspect.signature(o))
print(inspect.signature(C))
print('fused' in inspect.signature(torch.optim.AdamW).parameters)
print('foreach' in inspect.signature(torch.optim.SGD).parameters)
print(list(inspect.signature(torch.nn.Linear).parameters))
for bad in [torch.add, 3]:
    try:
        inspect.signature(bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).split(' <')[0])

# binding
s = inspect.signature(f)
b = s.bind(1, 2, 3, c=5, e=6)
print(b.arguments, b.args, b.kwargs)
b.apply_defaults()
print(b.arguments)
print(s.bind_partial(1).arguments, s.bind(1, c=0).kwargs)
for args, kwargs in [((1,), {}), ((), {'c': 1}), ((1, 2), {'b': 3, 'c': 1})]:
    try:
        s.bind(*args, **kwargs)
    except TypeError as e:
        print('TypeError', e)
try:
    inspect.signature(D.m).bind(1, 2, 3, 4)
except TypeError as e:
    print('TypeError', e)
try:
    inspect.signature(D.m).bind(1, 2, z=4)
except TypeError as e:
    print('TypeError', e)

# building signatures by hand
P = inspect.Parameter
params = [P('x', P.POSITIONAL_OR_KEYWORD), P('y', P.KEYWORD_ONLY, default=None, annotation=int)]
sig = inspect.Signature(params, return_annotation=float)
print(sig, sig.return_annotation is float, sig == inspect.Signature(params, return_annotation=float))
print(s.replace(parameters=list(s.parameters.values())[:2]), params[0].replace(name='w', default=0.5))
for make in [lambda: P('1x', P.POSITIONAL_OR_KEYWORD), lambda: P('a', P.VAR_POSITIONAL, default=1),
             lambda: inspect.Signature([P('a', P.KEYWORD_ONLY), P('b', P.POSITIONAL_OR_KEYWORD)]),
             lambda: inspect.Signature([P('a', P.POSITIONAL_OR_KEYWORD, default=1), P('b', P.POSITIONAL_OR_KEYWORD)]),
             lambda: inspect.Signature([P('a', P.KEYWORD_ONLY), P('a', P.KEYWORD_ONLY)])]:
    try:
        make()
    except ValueError as e:
        print('ValueError', e)
print(P.POSITIONAL_ONLY < P.KEYWORD_ONLY, int(P.VAR_KEYWORD), str(P.VAR_KEYWORD))

# getfullargspec and predicates
print(inspect.getfullargspec(f))
print(inspect.getfullargspec(D.m))
print(inspect.isclass(D), inspect.isfunction(f), inspect.ismethod(D(1).m), inspect.isfunction(D.m),
      inspect.ismodule(torch), inspect.isbuiltin(len), inspect.isroutine(f), inspect.isclass(D(1)))


def gen():
    yield 1


print(inspect.isgeneratorfunction(gen), inspect.isgeneratorfunction(f), inspect.isgenerator(gen()), inspect.isgenerator(iter([])))
print(type(gen()), type(gen()).__name__)
print([n for n, _ in inspect.getmembers(D) if not n.startswith('_')])
print([n for n, v in inspect.getmembers(D(1)) if not n.startswith('_') and not inspect.ismethod(v)])
print(inspect.getmro(E) == (E, D, object), E.__mro__[1] is D)
print(inspect.cleandoc('''  First line.
        indented
          more
    '''))

# function attributes
print(f.__defaults__, f.__kwdefaults__, D.m.__defaults__, gen.__kwdefaults__)
co = f.__code__
print(co.co_varnames, co.co_argcount, co.co_kwonlyargcount, co.co_posonlyargcount, co.co_flags, co.co_name)
print(gen.__code__.co_flags & 32, D.m.__code__.co_varnames, D(1).m.__code__ is D.m.__code__)


def outer():
    v = 1

    def inner(a):
        return a + v
    return inner


print(outer().__code__.co_flags & 16, outer().__code__.co_freevars, outer.__code__.co_cellvars)
f.calls = 3
f.calls += 1
print(f.calls, f.__dict__, vars(f))
del f.calls
print(hasattr(f, 'calls'))


def deco(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@deco
def target(x, y=5):
    return x + y


print(target.__name__, target.__qualname__, target.__wrapped__.__name__, target(1), inspect.signature(target))
print(inspect.signature(target, follow_wrapped=False), inspect.unwrap(target) is target.__wrapped__)
print('__init__' in vars(D), '__init__' in E.__dict__, sorted(k for k in D.__dict__ if not k.startswith('__')))
print('a_b'.isidentifier(), '1a'.isidentifier(), ''.isidentifier(), 'for'.isidentifier(), 'x y'.isidentifier())
print('a\tbc\td'.expandtabs(), 'a\tb'.expandtabs(2), 'abc'.isascii(), 'é'.isascii())
