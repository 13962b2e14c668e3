# warnings and contextlib: filters, the once-per-location registry,
# catch_warnings(record=True), formatwarning; nullcontext, suppress,
# closing, contextmanager (exceptions thrown in at the yield), ExitStack and
# generator.throw().
import warnings
import contextlib
from contextlib import contextmanager, suppress, nullcontext


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', e)


def emit(msg, category=UserWarning):
    warnings.warn(msg, category)


with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    warnings.warn('plain')
    warnings.warn('deprecated', DeprecationWarning)
    emit('from a helper', RuntimeWarning)
    warnings.warn(FutureWarning('an instance'))
    print(len(w), [x.category.__name__ for x in w], [str(x.message) for x in w])
    print(type(w[0].message).__name__, w[0].filename == __file__ or w[0].filename.endswith('lang_stdlib_warnings.py'))
    print(w[0].lineno, w[2].lineno)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('default')
    for i in range(3):
        warnings.warn('once per line')
    warnings.warn('once per line')
    print(len(w))

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('once')
    for i in range(2):
        warnings.warn('once ever')
    warnings.warn('once ever')
    warnings.warn('another')
    print(len(w), [str(x.message) for x in w])

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    warnings.filterwarnings('ignore', message='skip me')
    warnings.filterwarnings('ignore', category=RuntimeWarning)
    warnings.warn('skip me please')
    warnings.warn('keep me')
    warnings.warn('numeric', RuntimeWarning)
    warnings.warn('Skip Me too')
    print([str(x.message) for x in w])

with warnings.catch_warnings():
    warnings.simplefilter('error')
    show(lambda: warnings.warn('now an error'))
    show(lambda: warnings.warn('deprecated error', DeprecationWarning))

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('ignore')
    warnings.warn('ignored')
    print(len(w))

print(warnings.formatwarning('msg', UserWarning, 'file.py', 12, '  x = 1  '), end='')
print(warnings.formatwarning('msg', DeprecationWarning, 'file.py', 3), end='')
show(lambda: warnings.warn('bad', int))
show(lambda: warnings.simplefilter('sometimes'))
print(issubclass(DeprecationWarning, Warning), issubclass(FutureWarning, Warning), issubclass(UserWarning, Exception))

with nullcontext(5) as v:
    print('nullcontext', v)
with nullcontext() as v:
    print('nullcontext', v)
with suppress(KeyError, IndexError):
    {}['missing']
print('suppressed')
try:
    with suppress(KeyError):
        raise ValueError('not suppressed')
except ValueError as e:
    print('ValueError', e)


@contextmanager
def tag(name):
    print('<' + name + '>')
    yield name.upper()
    print('</' + name + '>')


with tag('b') as t:
    print('inside', t)


@contextmanager
def no_yield():
    if False:
        yield


show(lambda: no_yield().__enter__())


class Resource:
    def close(self):
        print('closed')


with contextlib.closing(Resource()) as r:
    print('using', type(r).__name__)

with contextlib.ExitStack() as stack:
    a = stack.enter_context(tag('x'))
    b = stack.enter_context(tag('y'))
    stack.callback(print, 'callback', 1)
    print('body', a, b)


# Exceptions in the with-body are thrown into a @contextmanager generator;
# generator.throw() itself.
@contextmanager
def guarded(name):
    print('enter', name)
    try:
        yield name
    except KeyError as e:
        print('handled KeyError', e)
    finally:
        print('exit', name)


with guarded('a') as n:
    print('body', n)
with guarded('b'):
    raise KeyError('k')
print('after b')
try:
    with guarded('c'):
        raise ValueError('v')
except ValueError as e:
    print('propagated', e)


@contextmanager
def transform():
    try:
        yield
    except ZeroDivisionError:
        raise RuntimeError('converted')


try:
    with transform():
        1 / 0
except RuntimeError as e:
    print('RuntimeError', e)


@contextmanager
def bad():
    try:
        yield
    except Exception:
        yield


try:
    with bad():
        raise IndexError('i')
except RuntimeError as e:
    print('RuntimeError', e)


def gen():
    try:
        yield 1
        yield 2
    except ValueError as e:
        print('gen caught', e)
        yield 'recovered'
    yield 'end'


g = gen()
print(next(g), g.throw(ValueError('x')), next(g))
try:
    g.throw(KeyError('after'))
except KeyError as e:
    print('KeyError', e)
print(list(g))
g2 = gen()
try:
    g2.throw(TypeError('fresh'))
except TypeError as e:
    print('TypeError', e)
print(list(g2))
