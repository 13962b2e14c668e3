#!/usr/bin/env python3
"""Writes the VM fuzz target's seed corpus into corpus/vm/.

Small scripts that run: every builtin, the methods of str/list/dict/set,
classes, exceptions, each torch op family on tiny tensors, nn and optim;
then scripts that should fail cleanly: runaway loops and recursion, huge
repetitions and allocations, self-containing containers, mutation during
iteration, every operator on every pair of types, integer overflow, NaN,
bad indices and arguments; then truncations, mutants and binary garbage.
The oracle scripts (tests/oracle/*.py) are added whole and cut in half.

Deterministic: rerunning rewrites the same files. Keep tensors tiny: the
replay runs under ASan in CTest.
"""
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "vm")
ORACLE = os.path.join(HERE, "..", "oracle")


def attempt(lines):
    """Each line in its own try, so one failure does not hide the rest."""
    out = []
    for line in lines:
        out.append("try:\n    print(" + line + ")\nexcept Exception as e:\n    print(type(e).__name__, e)\n")
    return "".join(out)


BUILTIN_CALLS = {
    "print": ["1, 2, sep='-', end='!\\n'", "*[1, 2, 3]", "'a', None, 1.5, [1], {'k': (1,)}", "sep=1"],
    "range": ["list(range(5))", "list(range(10, 0, -3))", "range(1, 2, 0)", "range(2**62, -2**62, -2**61)",
              "len(range(-5, 5, 2))", "range(0, 10)[::-2]", "range(5)[7]", "3 in range(1, 9, 2)", "range(1.5)"],
    "len": ["len('abc')", "len([1, 2])", "len({})", "len(5)", "len(range(2**62))", "len()"],
    "minmax": ["min(3, 1, 2)", "max([4, 9, 2])", "min([], default=7)", "max([])", "min('bca')",
               "max([1, 'a'])", "max(1)", "min([3, -4], key=abs)", "max(key=len)", "max(1, 2, key=None)"],
    "abs_sum": ["abs(-3)", "abs(-2.5)", "abs('x')", "abs(-9223372036854775807 - 1)", "sum([1, 2.5])",
                "sum([[1], [2]], [])", "sum(['a'], '')", "sum(range(100), 5)", "sum(1)"],
    "round": ["round(2.5)", "round(3.5)", "round(-0.5)", "round(1.2345, 2)", "round(1234, -2)",
              "round(float('inf'))", "round(float('nan'))", "round(1e300, -400)", "round(5, 10**18)", "round('x')"],
    "int": ["int('42')", "int(' -7 ')", "int('0x1f', 16)", "int('z', 36)", "int('1_000')", "int(3.9)",
            "int(-3.9)", "int(float('inf'))", "int(float('nan'))", "int('99999999999999999999')",
            "int('')", "int('12', 1)", "int('12', 37)", "int(True)", "int([])", "int(1e19)"],
    "float": ["float('1.5')", "float(' nan ')", "float('-inf')", "float('1e999')", "float('abc')", "float(3)",
              "float('infinity')", "float(2**63 - 1)", "float([])", "float('1_0.5')"],
    "bool_str_repr": ["bool([])", "bool('x')", "str(1.0)", "str(None)", "repr('a\\'b\"c')", "repr([1, 'x'])",
                      "str(b=1)", "repr(1e-7)", "str(2**63 - 1)", "repr({1: {2: [3]}})"],
    "containers": ["list('abc')", "tuple([1, 2])", "dict(a=1, b=2)", "dict([(1, 2), (3, 4)])", "set([1, 1, 2])",
                   "dict([(1, 2, 3)])", "dict(1)", "list(5)", "set([[1]])", "dict({1: 2}, x=3)", "tuple(range(3))"],
    "zip_enum": ["list(zip([1, 2], 'ab', (3, 4, 5)))", "list(enumerate('xy', start=5))", "list(zip())",
                 "list(enumerate(7))", "list(zip(1, 2))", "list(reversed([1, 2, 3]))", "list(reversed(range(5)))",
                 "reversed(5)", "list(reversed('abc'))"],
    "sorted": ["sorted([3, 1, 2])", "sorted('bca', reverse=True)", "sorted([(1, 'b'), (1, 'a')])",
               "sorted([1, 'a'])", "sorted([3, 1], key=lambda x: -x)", "sorted([1.5, float('nan'), 0.5])",
               "sorted({3: 1, 1: 2})", "sorted(5)", "sorted([1], key=5)"],
    "isinstance": ["isinstance(1, int)", "isinstance(True, int)", "isinstance(1, (str, float))",
                   "isinstance(1, 5)", "issubclass(bool, int)", "issubclass(1, int)", "isinstance([], list)",
                   "issubclass(ValueError, (KeyError, Exception))"],
    "attrs": ["hasattr([], 'append')", "getattr(1, 'real', 0)", "getattr(1, 'nope')", "getattr(1, 'nope', 'dflt')",
              "setattr(1, 'x', 2)", "delattr(1, 'x')", "getattr(1, 5)", "type(1).__name__", "type('x')",
              "type(type)", "type(1, 2)"],
    "anyall_map_filter": ["any([0, '', 3])", "all([])", "all([1, 0])", "list(map(str, [1, 2]))",
                          "list(map(lambda a, b: a + b, [1, 2], [3]))", "list(filter(None, [0, 1, '', 'a']))",
                          "list(filter(lambda x: x > 1, range(4)))", "map(5, [1])", "list(map(len, [1]))"],
    "ord_chr": ["ord('a')", "ord('é')", "ord('ab')", "ord('')", "chr(65)", "chr(233)", "chr(-1)",
                "chr(0x110000)", "chr(0x10FFFF)", "chr(0xD800)", "ord(chr(128512))"],
    "divmod_pow": ["divmod(7, -2)", "divmod(-7.5, 2)", "divmod(1, 0)", "divmod(1.0, 0.0)", "pow(2, 10)",
                   "pow(2, -1)", "pow(2, 10, 1000)", "pow(3, -1, 7)", "pow(2, 3, 0)", "pow(0, -1)",
                   "pow(-8, 1/3)", "pow(2, 64)", "pow(10, 18, 2**62)", "pow(2.0, 10000)"],
    "hexbinoct": ["hex(255)", "bin(-5)", "oct(8)", "hex(-9223372036854775807 - 1)", "hex(1.5)", "bin(0)",
                  "format(255, 'x')", "format(255, '#010b')", "format(3.14159, '.2f')", "format('s', '>5')",
                  "format(1, 'q')", "format(1.5, 'd')", "format(12345678, ',')", "format(1e300, 'f')",
                  "format(1.5, '.999f')", "format(2, '99999999999')"],
    "iter_next": ["next(iter([1]))", "next(iter([]))", "next(iter([]), 'end')", "iter(5)", "next(5)",
                  "next(iter(range(3)))", "list(iter([1, 2]))", "next(iter({1: 2}))"],
    "callable_id_hash": ["callable(len)", "callable(1)", "id(1) == id(1)", "hash(1) == hash(1.0)", "hash('a') == hash('a')",
                         "hash([])", "hash((1, [2]))", "hash(float('nan')) == hash(float('nan'))", "hash(-1)",
                         "hash((1, 2)) == hash((1, 2))", "hash(float('inf'))"],
    "dir_vars": ["len(dir()) > 0", "'append' in dir([])", "vars()", "vars(1)", "dir(1, 2)", "type(object())",
                 "object() == object()", "object(1)", "slice(1, 2, 3)", "slice(None)", "[1, 2, 3][slice(0, 2)]",
                 "slice()", "slice(1, 2, 3, 4)"],
    "unsupported": ["open('x')", "input()", "eval('1')", "exec('1')", "__import__('os')", "compile('1', 'f', 'eval')",
                    "globals()", "locals()", "breakpoint()", "memoryview(b'')"],
}

STR_METHODS = [
    "'a,b,,c'.split(',')", "' x y '.split()", "'a b c'.split(None, 1)", "'abc'.split('')", "'a-b-c'.rsplit('-', 1)",
    "','.join(['a', 'b'])", "','.join([1, 2])", "''.join([])", "'  pad '.strip()", "'xxhixx'.strip('x')",
    "'  l'.lstrip()", "'r  '.rstrip()", "'Hi'.upper()", "'Hi'.lower()", "'hi there'.title()", "'hi'.capitalize()",
    "'Hi'.swapcase()", "'ß'.casefold()", "'abc'.startswith(('x', 'a'))", "'abc'.endswith('bc')",
    "'abc'.startswith(1)", "'aaa'.replace('a', 'bb')", "'aaa'.replace('a', 'b', 2)", "'aaa'.replace('', '-')",
    "'abcabc'.find('c')", "'abcabc'.rfind('c')", "'abc'.index('z')", "'abc'.rindex('a')", "'aaa'.count('a')",
    "'aaa'.count('')", "'123'.isdigit()", "'12a'.isalnum()", "'ab'.isalpha()", "' '.isspace()", "'AB'.isupper()",
    "'ab'.islower()", "'1'.isdecimal()", "'1'.isnumeric()", "'7'.zfill(4)", "'-7'.zfill(4)", "'x'.center(5, '*')",
    "'x'.ljust(3)", "'x'.rjust(3, 'ab')", "'a=b=c'.partition('=')", "'a=b=c'.rpartition('=')", "'a\\nb\\r\\nc'.splitlines()",
    "'prefix_x'.removeprefix('prefix_')", "'x.py'.removesuffix('.py')", "'{} {}'.format(1, 2)", "'{0}{0}'.format('a')",
    "'{a}'.format(a=5)", "'{:>{w}}'.format('x', w=4)", "'{}'.format()", "'{0'.format(1)", "'{x}'.format()",
    "'{:q}'.format(1)", "'%d %s %r' % (1, 'a', 'b')", "'%5.2f|%-4d|%x|%e|%g|%%' % (3.14159, 7, 255, 12345.678, 0.0001)",
    "'%d' % 'x'", "'%s %s' % (1,)", "'%' % ()", "'%(a)s' % {'a': 1}", "'%c' % 65", "'%*d' % (5, 1)",
    "f'{1+1:03d}|{\"s\"!r}|{3.5:.1%}|{1000000:,}|{255:#x}|{-1:+}|{\"c\":^5}'",
    "'abc'[::-1]", "'abc'[5]", "'abc'[1:100]", "'a' in 'abc'", "1 in 'abc'", "'ab' * 3", "'ab' * -1", "'a' < 'b'",
    "'a' + 1", "'é'.upper()", "'x'.encode()", "str.lower('ABC')", "'abc'.split(',', -1)", "'x'.join('abc')",
]

LIST_METHODS = [
    "[1, 2].append(3)", "[1].extend(range(3))", "[1, 3].insert(1, 2)", "[1, 3].insert(-100, 0)", "[1, 2].pop()",
    "[1, 2].pop(0)", "[].pop()", "[1].pop(5)", "[1, 2, 1].remove(1)", "[1].remove(9)", "[1, 2, 3].index(2)",
    "[1].index(9)", "[1, 2, 3].index(3, 1, 2)", "[1, 1].count(1)", "sorted([3, 1, 2], key=None)", "[1, 2].reverse()",
    "[1].clear()", "[[1]].copy()", "[1, 2] + [3]", "[1] * 3", "3 * [1]", "[1] * -2", "[1, 2] == [1, 2]",
    "[1, 2] < [1, 3]", "[1] < ['a']", "[1, 2, 3][1:]", "[1, 2, 3][::-2]", "[1, 2, 3][::0]", "[1, 2][5]", "[1, 2][-3]",
    "[1, 2]['a']", "[1, 2][1.0]", "[1, 2][True]", "[] + ()", "[1] + 'a'",
]

LIST_STMTS = """\
a = [5, 3, 8, 1]
a.sort()
print(a)
a.sort(key=lambda x: -x, reverse=True)
print(a)
a[1:3] = [9, 9, 9]
print(a)
a[::2] = [0, 0, 0]
print(a)
try:
    a[::2] = [1]
except ValueError as e:
    print(e)
del a[::2]
print(a)
a[5:] = range(3)
print(a)
a += 'xy'
print(a)
a *= 2
print(a)
a *= 0
print(a)
b = [[0] * 3 for _ in range(3)]
b[1][1] = 5
print(b)
c = [1, 2, 3]
c[-1:0] = [7]
print(c)
del c[100:200]
del c[-1]
print(c)
try:
    del c[10]
except IndexError as e:
    print(e)
try:
    c.sort(key=lambda x: 'a' if x > 1 else 1)
except TypeError as e:
    print(e)
d = [3, 1, 2]
try:
    d.sort(key=lambda x: d.append(x))
except Exception as e:
    print(type(e).__name__)
print(len(d) < 10)
"""

DICT_METHODS = [
    "{'a': 1}.get('a')", "{'a': 1}.get('b', 2)", "list({'a': 1}.items())", "list({'a': 1}.keys())",
    "list({'a': 1}.values())", "{}.setdefault('k', [])", "{'a': 1}.pop('a')", "{}.pop('x')", "{}.pop('x', 0)",
    "{'a': 1}.popitem()", "{}.popitem()", "{1: 2}.copy()", "dict.fromkeys('ab', 0)", "{1: 2} == {1: 2}",
    "{1: 2} | {3: 4}", "{1: 2}[3]", "{[1]: 2}", "{(1, 2): 3}[(1, 2)]", "{1: 'a', 1.0: 'b', True: 'c'}",
    "'a' in {'a': 1}", "[] in {}", "len({1: 2, 2: 3})", "{1: 2} < {1: 2}", "{'a': 1}.update({'b': 2})",
    "{}.update(5)", "{}.update([(1, 2)], c=3)", "{}.keys() == {}.keys()", "{1: 2}.clear()", "{1: 2}.get()",
]

SET_METHODS = [
    "{1, 2}.add(3)", "{1}.discard(5)", "{1}.remove(5)", "{1, 2}.pop()", "set().pop()", "{1}.update([2], (3,))",
    "{1, 2}.union([3])", "{1, 2}.intersection({2, 3})", "{1, 2}.difference([1])", "{1, 2}.symmetric_difference({2, 3})",
    "{1}.issubset({1, 2})", "{1, 2}.issuperset([1])", "{1}.isdisjoint([2])", "{1}.copy()", "{1}.clear()",
    "{1, 2} | {3}", "{1, 2} & {2}", "{1, 2} - {2}", "{1, 2} ^ {2, 3}", "{1} | [2]", "{1} < {1, 2}", "{1} <= {1}",
    "{[1]}", "{1, 2} == {2, 1}", "{1, 1.0, True}", "sorted({'b', 'a'})", "{1}.add([])", "len({(1, 2), (1, 2)})",
]

CLASSES = {
    "basic": """\
class Point:
    count = 0
    def __init__(self, x, y=0):
        self.x = x
        self.y = y
        Point.count += 1
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
    def __eq__(self, other):
        return isinstance(other, Point) and self.x == other.x and self.y == other.y
    def __hash__(self):
        return hash((self.x, self.y))
    def __add__(self, o):
        return Point(self.x + o.x, self.y + o.y)
    def __lt__(self, o):
        return (self.x, self.y) < (o.x, o.y)
    def __len__(self):
        return 2
    def __bool__(self):
        return bool(self.x or self.y)
p = Point(1, 2)
q = Point(3)
print(p, q, p + q, p == Point(1, 2), p != q, len(p), bool(Point(0)))
print(sorted([q, p]), {p: 1}[Point(1, 2)], Point.count)
print(str(p), repr([p]), p.__class__.__name__, type(p).__name__)
try:
    p < 1
except Exception as e:
    print(type(e).__name__, e)
try:
    p * 2
except TypeError as e:
    print(e)
""",
    "inherit": """\
class Base:
    kind = "base"
    def __init__(self, n):
        self.n = n
    def describe(self):
        return f"{self.kind}:{self.n}:{self.extra()}"
    def extra(self):
        return "none"
class Child(Base):
    kind = "child"
    def __init__(self, n, m):
        super().__init__(n)
        self.m = m
    def extra(self):
        return "m=" + str(self.m) + "/" + super().extra()
c = Child(1, 2)
print(c.describe(), isinstance(c, Base), issubclass(Child, Base), Child.__name__)
print(Base.describe(c))
try:
    Base.describe()
except TypeError as e:
    print(e)
try:
    Child(1)
except TypeError as e:
    print(e)
try:
    c.nothing
except AttributeError as e:
    print(e)
""",
    "props": """\
class Temp:
    def __init__(self):
        self._c = 0.0
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, v):
        if v < -273.15:
            raise ValueError("too cold")
        self._c = v
    @property
    def f(self):
        return self._c * 9 / 5 + 32
    @staticmethod
    def unit():
        return "C"
    @classmethod
    def make(cls, v):
        t = cls()
        t.c = v
        return t
t = Temp.make(100)
print(t.c, t.f, Temp.unit(), t.unit())
try:
    t.c = -500
except ValueError as e:
    print(e)
try:
    t.f = 3
except AttributeError as e:
    print(type(e).__name__)
try:
    del t.c
except AttributeError as e:
    print(type(e).__name__)
""",
    "dunders": """\
class Bag:
    def __init__(self, *items):
        self.items = list(items)
    def __getitem__(self, i):
        return self.items[i]
    def __setitem__(self, i, v):
        self.items[i] = v
    def __contains__(self, v):
        return v in self.items
    def __iter__(self):
        return iter(self.items)
    def __call__(self, k=1):
        return self.items * k
    def __neg__(self):
        return Bag(*[-x for x in self.items])
    def __mul__(self, k):
        return Bag(*(self.items * k))
    def __rmul__(self, k):
        return self * k
    def __str__(self):
        return "Bag" + str(self.items)
b = Bag(1, 2, 3)
b[0] = 10
print(b[0], b[-1], 2 in b, list(b), b(2), str(-b), str(b * 2), str(2 * b), b[1:])
print(sum(b), max(b), sorted(b, reverse=True), [x for x in b if x > 1])
a, *rest = b
print(a, rest)
try:
    b[10]
except IndexError as e:
    print(e)
class Seq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError
        return i * i
print(list(Seq()), 4 in Seq())
""",
    "setattr": """\
class Frozen:
    def __init__(self):
        object.__setattr__(self, "x", 1)
    def __setattr__(self, k, v):
        raise AttributeError("frozen: " + k)
f = Frozen()
print(f.x)
try:
    f.y = 2
except AttributeError as e:
    print(e)
class Logged:
    def __setattr__(self, k, v):
        print("set", k, v)
        object.__setattr__(self, k, v)
l = Logged()
l.a = 5
print(l.a, vars(l))
setattr(l, "b", 6)
print(getattr(l, "b"), hasattr(l, "c"))
delattr(l, "a")
print(hasattr(l, "a"))
""",
    "bad_dunders": """\
class BadLen:
    def __len__(self):
        return -1
class StrLen:
    def __len__(self):
        return "3"
class BadIter:
    def __iter__(self):
        return 5
class BadRepr:
    def __repr__(self):
        return 42
class BadBool:
    def __bool__(self):
        return 2
class BadHash:
    def __hash__(self):
        return "h"
class RaisingEq:
    def __eq__(self, o):
        raise ValueError("eq")
for make in [lambda: len(BadLen()), lambda: len(StrLen()), lambda: list(BadIter()), lambda: repr(BadRepr()),
             lambda: bool(BadBool()), lambda: hash(BadHash()), lambda: RaisingEq() in [1, 2],
             lambda: [RaisingEq()].index(1), lambda: {RaisingEq(): 1}, lambda: str(BadRepr()),
             lambda: print(BadRepr()), lambda: f"{BadRepr()!r}"]:
    try:
        print(make())
    except Exception as e:
        print(type(e).__name__, e)
""",
    "class_attrs": """\
class A:
    x = [1]
    def m(self):
        return self.x
a1 = A()
a2 = A()
a1.x.append(2)
print(a2.x, A.x is a1.x)
a1.x = 5
print(a1.x, a2.x, A.m(a2), a1.m())
A.y = lambda self: 7
print(a1.y())
print(A.__name__, type(A).__name__)
del A.y
print(hasattr(a1, "y"))
m = a1.m
print(m())
class B(A):
    pass
print(B().m(), B.__name__)
class C(B):
    def m(self):
        return super().m() + [99] if isinstance(super().m(), list) else 0
print(C().m())
""",
    "self_ref": """\
class Node:
    def __init__(self, v):
        self.v = v
        self.next = self
    def __repr__(self):
        return f"Node({self.v})"
n = Node(1)
n.next = Node(2)
n.next.next = n
print(n, n.next, n.next.next)
class Rec:
    def __repr__(self):
        return repr(self)
try:
    repr(Rec())
except RecursionError as e:
    print("RecursionError")
class Rec2:
    def __eq__(self, o):
        return self == o
try:
    Rec2() == 1
except RecursionError:
    print("RecursionError")
class Rec3:
    def __getattr__(self, k):
        return self.k
try:
    Rec3().zz
except Exception as e:
    print(type(e).__name__)
""",
    "init_errors": """\
class A:
    def __init__(self):
        return 5
try:
    A()
except TypeError as e:
    print(e)
class B:
    def __init__(self, a, *, k):
        self.a = a
try:
    B(1, 2)
except TypeError as e:
    print(e)
try:
    B(1, j=2)
except TypeError as e:
    print(e)
try:
    B(1, k=1, k2=2)
except TypeError as e:
    print(e)
print(B(1, k=2).a)
class C(int):
    pass
try:
    print(C(5) + 1)
except Exception as e:
    print(type(e).__name__)
try:
    class D(5):
        pass
except TypeError as e:
    print(e)
class E(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code
try:
    raise E("bad", 7)
except E as e:
    print(e, e.code, e.args)
""",
}

EXCEPTIONS = {
    "basic": """\
def f(x):
    try:
        if x == 0:
            raise ValueError("zero")
        if x == 1:
            return 1 / 0
        if x == 2:
            return [][1]
        if x == 3:
            return {}["k"]
        if x == 4:
            return undefined_name
        if x == 5:
            assert x < 0, "assert msg"
        if x == 6:
            raise
        return "ok"
    except (ValueError, ZeroDivisionError) as e:
        return "caught " + type(e).__name__ + ": " + str(e)
    except LookupError as e:
        return "lookup " + repr(e)
    except Exception as e:
        return "other " + type(e).__name__ + " " + str(e)
    else:
        return "else"
    finally:
        print("finally", x)
for i in range(8):
    print(f(i))
""",
    "finally_flow": """\
def a():
    try:
        return 1
    finally:
        return 2
def b():
    for i in range(3):
        try:
            if i == 1:
                break
        finally:
            print("fin", i)
    return i
def c():
    for i in range(3):
        try:
            continue
        finally:
            print("cont", i)
def d():
    try:
        raise ValueError("x")
    finally:
        return "swallowed"
def e():
    try:
        try:
            raise KeyError("inner")
        finally:
            raise ValueError("outer")
    except ValueError as ex:
        return repr(ex)
print(a(), b(), c(), d(), e())
""",
    "custom": """\
class AppError(Exception):
    pass
class DeepError(AppError):
    def __str__(self):
        return "deep!"
try:
    raise DeepError("x")
except AppError as e:
    print(type(e).__name__, e, isinstance(e, Exception), e.args)
try:
    raise AppError
except AppError as e:
    print(repr(e))
try:
    raise 5
except TypeError as e:
    print(e)
try:
    raise int
except TypeError as e:
    print(e)
try:
    raise ValueError("a") from KeyError("b")
except ValueError as e:
    print(e)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise
except ZeroDivisionError as e:
    print("reraised", e)
def nested():
    try:
        raise KeyError(1)
    except KeyError:
        try:
            raise ValueError(2)
        except ValueError:
            pass
        raise
try:
    nested()
except KeyError as e:
    print("nested", e)
print(issubclass(KeyError, LookupError), issubclass(RecursionError, RuntimeError))
e = ValueError(1, 2)
print(e.args, str(e), repr(e))
try:
    raise StopIteration
except StopIteration:
    print("stop")
try:
    raise SystemExit(3)
except BaseException as ex:
    print(type(ex).__name__)
""",
    "uncaught_value": "def f():\n    g()\ndef g():\n    raise ValueError('deep ' * 3)\nf()\n",
    "uncaught_custom": "class E(Exception):\n    def __str__(self):\n        raise ValueError('str failed')\nraise E()\n",
    "uncaught_repr_fail": "class E(Exception):\n    def __str__(self):\n        return 5\nraise E('x')\n",
    "bare_raise_none": "raise\n",
    "raise_in_except": "try:\n    1/0\nexcept ZeroDivisionError:\n    undefined()\n",
    "sys_exit": "import sys\nprint('bye')\nsys.exit(3)\n",
    "sys_exit_str": "import sys\nsys.exit('message')\n",
    "sys_exit_big": "import sys\nsys.exit(2**62)\n",
    "exit_in_finally": "import sys\ntry:\n    sys.exit(1)\nfinally:\n    print('cleanup')\n",
    "assert_fail": "x = 1\nassert x == 2, f'x is {x}'\n",
    "unbound_local": "x = 1\ndef f():\n    print(x)\n    x = 2\nf()\n",
    "nonlocal_cells": """\
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = counter()
print(c(), c(), c())
def late():
    def g():
        return v
    try:
        g()
    except NameError as e:
        print(type(e).__name__, e)
    v = 1
    return g()
print(late())
""",
    "exc_in_comprehension": "print([1 / x for x in [1, 0]])\n",
    "exc_in_lambda_sort": "print(sorted([1, 2, 3], key=lambda x: 1 / (x - 2)))\n",
    "exc_in_map": "print(list(map(lambda x: x.nope, [1])))\n",
    "exc_in_del": "class A:\n    pass\na = A()\ndel a.x\n",
    "exc_traceback_deep": "def r(n):\n    if n == 0:\n        raise KeyError('bottom')\n    return r(n - 1)\nr(150)\n",
    "exc_args_types": attempt(["ValueError()", "ValueError(None)", "KeyError('k')", "str(KeyError('k'))",
                               "IndexError(1, 2, 3).args", "Exception(Exception('x'))", "BaseException().args",
                               "ValueError.__name__", "ValueError('x') == ValueError('x')",
                               "isinstance(ValueError(), (TypeError, ValueError))"]),
}

TORCH = {
    "creation": """\
import torch
print(torch.tensor([1, 2, 3]), torch.tensor([[1.5, 2], [3, 4]]), torch.tensor(True), torch.tensor([]))
print(torch.zeros(2, 3), torch.ones((2,)), torch.full((2, 2), 7), torch.empty(0).shape)
print(torch.arange(5), torch.arange(1, 2, 0.25), torch.linspace(0, 1, 5), torch.eye(3), torch.eye(2, 3))
x = torch.ones(2, 2, dtype=torch.float64)
print(torch.zeros_like(x), torch.ones_like(x, dtype=torch.int64), torch.full_like(x, 3.5), x.dtype)
print(torch.tensor([1, 2], dtype=torch.float32).dtype, torch.tensor([1.0]).double().dtype, torch.tensor(3).long())
print(torch.as_tensor([1, 2]), torch.tensor([[1, 2], [3]]) if False else 0)
""",
    "creation_bad": attempt(["torch.tensor([[1, 2], [3]])", "torch.tensor('abc')", "torch.tensor([1, 'a'])",
                             "torch.zeros(-1)", "torch.ones(-1)", "torch.arange(0, 10, 0)", "torch.arange(10, 0)",
                             "torch.linspace(0, 1, -2)", "torch.eye(-3)", "torch.full((2,), 'x')",
                             "torch.zeros(2, dtype=5)", "torch.zeros(2, bogus=1)", "torch.tensor([1], dtype=torch.int64, device='cuda')",
                             "torch.zeros((2, 3), 4)", "torch.zeros(2.5)", "torch.empty(2, 3, 4, 5, 6, 7, 8, 9, 10).shape",
                             "torch.tensor([[[[[[[[[[1]]]]]]]]]]).shape", "torch.arange(float('nan'))",
                             "torch.arange(0, float('inf'))", "torch.tensor(float('inf')).long()", "torch.tensor(2**63 - 1) + 1"]),
    "random": """\
import torch
torch.manual_seed(0)
print(torch.rand(3), torch.randn(2, 2), torch.randint(0, 10, (4,)), torch.randint(5, (2,)))
x = torch.empty(4)
print(x.uniform_(-1, 1), x.normal_(0, 2), x.exponential_(), x.random_(0, 5))
print(torch.rand_like(x), torch.randn_like(x), torch.randint_like(x, 3))
p = torch.tensor([0.1, 0.0, 0.9])
print(torch.multinomial(p, 2), torch.bernoulli(torch.full((4,), 0.5)))
for bad in [lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1), lambda: torch.multinomial(p, 5),
            lambda: torch.randint(5, 0, (2,)), lambda: torch.bernoulli(torch.tensor([2.0])),
            lambda: torch.manual_seed(-1), lambda: torch.manual_seed(2**64), lambda: x.uniform_(1, 0),
            lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1), lambda: torch.multinomial(p, 2, replacement=True)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__)
""",
    "pointwise": """\
import torch
a = torch.tensor([[1.0, -2.0], [3.0, 0.5]])
b = torch.tensor([2.0, 4.0])
i = torch.tensor([7, -3])
print(a + b, a - 1, 2 * a, a / b, a // b, a % b, a ** 2, 2 ** a, -a, abs(a))
print(torch.add(a, b, alpha=2), torch.sub(a, b), torch.div(a, b, rounding_mode='floor'), torch.div(i, 2, rounding_mode='trunc'))
print(i // 2, i % 2, i / 2, i * 1.5, i ** 2, torch.remainder(i, -2), torch.floor_divide(i, 2))
for f in [torch.exp, torch.log, torch.log1p, torch.sqrt, torch.rsqrt, torch.sin, torch.cos, torch.tanh,
          torch.sigmoid, torch.erf, torch.relu, torch.abs, torch.neg, torch.sign]:
    print(f(a))
print(torch.maximum(a, b), torch.minimum(a, b), torch.clamp(a, -1, 1), torch.clamp(a, min=0), a.clamp(max=0.5))
print(torch.where(a > 0, a, b), torch.where(a > 0, a, 0.0), a.masked_fill(a < 0, 9), torch.logical_not(a))
print(a == b, a != 1, a < b, a >= 0.5, (a > 0) & (a < 2) if False else 0, torch.pow(a, 0.5), torch.pow(2, b))
print(torch.nn.functional.gelu(a), torch.nn.functional.silu(a), i // 0 if False else 0)
""",
    "pointwise_bad": attempt(["torch.tensor([1, 2]) // 0", "torch.tensor([1, 2]) % 0", "torch.tensor([1.0, 2.0]) / 0",
                              "torch.tensor([1, 2]) + torch.tensor([1, 2, 3])", "torch.tensor([1]) + 'a'",
                              "torch.tensor([1]) + [1, 2]", "torch.tensor([1]) + None", "torch.add(torch.tensor([1]), 1, alpha=0.5)",
                              "torch.div(torch.tensor([1]), 2, rounding_mode='bogus')", "torch.tensor([True]) - torch.tensor([True])",
                              "-torch.tensor([True])", "torch.tensor([2]) ** -1", "torch.clamp(torch.tensor([1.0]))",
                              "torch.where(torch.tensor([1.0]), 1, 2)", "torch.tensor([1.0]).masked_fill(torch.tensor([1]), 0)",
                              "torch.tensor([2**62]) * 4", "torch.tensor([-2**63]) // -1", "torch.tensor([-2**63]) % -1",
                              "torch.exp(torch.tensor([1000.0]))", "torch.log(torch.tensor([-1.0, 0.0]))",
                              "torch.tensor([float('nan')]) == torch.tensor([float('nan')])", "torch.sqrt(torch.tensor([4]))",
                              "torch.tensor([1, 2]) & torch.tensor([3, 1])", "torch.tensor([1.5]) | 1", "~torch.tensor([1, 2])",
                              "torch.tensor([1, 2]) << 70", "torch.relu(5)", "torch.exp('x')", "torch.add(1, 2)"]),
    "reductions": """\
import torch
a = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(a.sum(), a.sum(0), a.sum(dim=1, keepdim=True), a.mean(), a.mean(1), a.prod(), a.prod(1))
print(a.amax(), a.amin(0), a.max(), a.max(1), a.min(dim=0), a.max(1).values, a.min(0).indices)
print(a.argmax(), a.argmin(1), a.var(), a.std(0), a.var(1, unbiased=False), a.std(correction=0))
print(a.all(), a.any(1), (a > 2).all(0), torch.logsumexp(a, 1), torch.softmax(a, 1), torch.log_softmax(a, 0))
print(torch.maximum(a, a.flip(0)) if hasattr(a, 'flip') else 0, a.sum((0, 1)), a.mean(-1), torch.max(a, a))
e = torch.zeros(0, 3)
for f in [lambda: e.sum(), lambda: e.max(), lambda: e.mean(), lambda: e.argmax(), lambda: e.max(0), lambda: e.prod(),
          lambda: a.sum(5), lambda: a.sum(-3), lambda: a.max(dim=2), lambda: a.var(0, correction=5), lambda: a.std(),
          lambda: a.sum(dim=(0, 0)), lambda: torch.tensor(1.0).sum(0), lambda: torch.tensor(1.0).argmax(0),
          lambda: torch.tensor([1, 2]).mean(), lambda: a.sum(dtype=torch.int64), lambda: a.softmax(3)]:
    try:
        print(f())
    except Exception as ex:
        print(type(ex).__name__)
""",
    "shape": """\
import torch
a = torch.arange(24).reshape(2, 3, 4)
print(a.view(6, 4).shape, a.reshape(-1).shape, a.transpose(0, 2).shape, a.permute(2, 0, 1).shape, a.t() if a.dim() == 2 else 0)
print(a.unsqueeze(0).shape, a.unsqueeze(-1).squeeze().shape, a.flatten(1).shape, a[:, :1].expand(2, 5, 4).shape)
print(a.transpose(0, 1).contiguous().is_contiguous(), a.narrow(2, 1, 2).shape, a.select(1, 0), a.as_strided((2, 2), (1, 2)))
print(a.split(1), a.split([1, 2], dim=1)[1].shape, a.chunk(3, 2)[2].shape, a.unbind(0)[1].shape)
print(torch.cat([a, a], 1).shape, torch.stack([a, a], 3).shape, torch.tril(torch.ones(3, 3)), torch.triu(torch.ones(3, 3), 1))
print(a.size(), a.size(1), a.stride(), a.numel(), a.dim(), a.ndim, a.shape[-1], a.T.shape if False else 0)
""",
    "shape_bad": attempt(["torch.arange(6).view(4, -1)", "torch.arange(6).view(-1, -1)", "torch.arange(6).reshape(7)",
                          "torch.arange(6).view(2, 3).t().view(6)", "torch.arange(6).transpose(0, 3)", "torch.arange(6).permute(1, 0)",
                          "torch.arange(6).unsqueeze(5)", "torch.arange(6).squeeze(3)", "torch.arange(6).expand(2, 3)",
                          "torch.arange(6).narrow(0, 5, 3)", "torch.arange(6).select(0, 6)", "torch.arange(6).split(0)",
                          "torch.arange(6).chunk(0)", "torch.cat([])", "torch.cat([torch.ones(2), torch.ones(2, 2)])",
                          "torch.stack([torch.ones(2), torch.ones(3)])", "torch.arange(6).as_strided((100,), (100,))",
                          "torch.arange(6).as_strided((2,), (-1,))", "torch.tril(torch.ones(3))", "torch.arange(6).view(2**40, 0)",
                          "torch.arange(6).reshape(-2)", "torch.arange(6).flatten(1)", "torch.ones(2, 2).t().t().t()",
                          "torch.arange(6).expand(-1)", "torch.ones(0, 2).view(0, -1)", "torch.ones(2).size(3)",
                          "torch.cat([torch.ones(1), 1])", "torch.ones(2, 2).split([1, 5])"]),
    "indexing": """\
import torch
a = torch.arange(12.0).reshape(3, 4)
print(a[0], a[-1, -1], a[1:, ::2], a[None, 1].shape, a[..., 1], a[a > 5], a[torch.tensor([2, 0])], a[[0, 2], [1, 3]])
a[0] = 100
a[:, 1] = torch.tensor([7.0, 8.0, 9.0])
a[a > 50] = -1
a[1, 2] += 5
print(a)
print(a.index_select(1, torch.tensor([0, 3])), a.gather(1, torch.tensor([[0], [1], [2]])), a.nonzero().shape)
z = torch.zeros(3, 4)
print(z.scatter_add(0, torch.tensor([[0, 1, 2, 0]]), torch.ones(1, 4)), z.index_add(0, torch.tensor([1]), torch.ones(1, 4)))
print(z.index_copy(1, torch.tensor([3]), torch.ones(3, 1)), z.scatter(1, torch.tensor([[1], [0], [3]]), 2.0))
print(a[1].item() if False else a[1, 1].item(), a.tolist(), a[0, 0].tolist(), torch.tensor([]).tolist())
""",
    "indexing_bad": attempt(["torch.ones(3)[3]", "torch.ones(3)[-4]", "torch.ones(3)[0, 0]", "torch.ones(3)['a']",
                             "torch.ones(3)[1.5]", "torch.ones(3)[torch.tensor([5])]", "torch.ones(3)[torch.tensor([True, False])]",
                             "torch.ones(3)[torch.tensor([0.5])]", "torch.ones(3)[::-1]", "torch.ones(3)[::0]", "torch.ones(2, 2)[..., ..., 0]",
                             "torch.ones(3).gather(0, torch.tensor([3]))", "torch.ones(3).index_select(0, torch.tensor([-1]))",
                             "torch.zeros(3).scatter_add(0, torch.tensor([9]), torch.ones(1))", "torch.ones(3).item()",
                             "torch.ones(3).index_add(0, torch.tensor([0, 1]), torch.ones(3))", "torch.ones(3)[[0, 1, 5]]",
                             "torch.ones(3)[None, None, None, None].shape", "torch.ones(3)[{}]", "torch.ones(2, 2)[[[0]], [[0, 1], [1, 0]]]"]),
    "indexing_assign_bad": """\
import torch
a = torch.zeros(3)
for f in [lambda: a.__setitem__(5, 1), lambda: a.__setitem__(slice(0, 2), torch.ones(3)), lambda: a.__setitem__(0, 'x'),
          lambda: a.__setitem__(torch.tensor([True]), 1), lambda: a.__setitem__(0, torch.ones(2))]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__)
try:
    a[5] = 1
except IndexError as e:
    print("IndexError")
try:
    a[:2] = torch.ones(3)
except RuntimeError:
    print("RuntimeError")
try:
    a[0] = 'x'
except TypeError:
    print("TypeError")
print(a)
""",
    "matmul": """\
import torch
a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, 2.0, 3.0])
print(a @ b, torch.mm(a, b), torch.matmul(a, v), torch.mv(a, v), torch.dot(v, v), v @ v)
print(torch.bmm(a.unsqueeze(0), b.unsqueeze(0)).shape, torch.matmul(torch.ones(2, 1, 2, 3), torch.ones(3, 3, 1)).shape)
print(torch.nn.functional.linear(v, a), torch.equal(a, a), torch.allclose(a, a + 1e-9), torch.ones(2, 0) @ torch.ones(0, 2))
for f in [lambda: a @ a, lambda: torch.mm(a, v), lambda: torch.dot(v, a), lambda: torch.bmm(a, b), lambda: v @ 3,
          lambda: torch.mv(a, torch.ones(2)), lambda: torch.matmul(torch.tensor(1.0), v), lambda: torch.mm(a.long(), b),
          lambda: torch.ones(2, 3, dtype=torch.int64) @ torch.ones(3, 2, dtype=torch.int64)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
""",
    "autograd": """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad, x.is_leaf, y.grad_fn is not None, y.requires_grad)
z = (x.exp() * 2).mean()
z.backward(retain_graph=True)
z.backward()
print(x.grad)
x.grad = None
w = x.detach().clone().requires_grad_()
with torch.no_grad():
    print((w * 2).requires_grad)
u = w * 3
u.retain_grad()
u.sum().backward()
print(u.grad, w.grad)
for f in [lambda: y.backward(), lambda: x.backward(), lambda: torch.ones(2).backward(), lambda: x.add_(1),
          lambda: torch.tensor([1, 2], requires_grad=True), lambda: (x * 2).backward(torch.ones(2))]:
    try:
        f()
        print("ok")
    except Exception as e:
        print(type(e).__name__)
a = torch.ones(2, requires_grad=True)
b = a * 2
c = b * b
b.add_(1)
try:
    c.sum().backward()
except RuntimeError:
    print("version")
@torch.no_grad()
def f(t):
    return t * 2
print(f(a).requires_grad, torch.is_grad_enabled())
with torch.enable_grad():
    print(torch.is_grad_enabled())
""",
    "dtypes": """\
import torch
for dt in [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.float, torch.double, torch.long]:
    t = torch.tensor([1, 0, 2]).to(dt)
    print(dt, t, t.dtype, t + 1, t * 1.5, t.float().dtype, t.sum().dtype)
print(torch.tensor([1]) + torch.tensor([1.0], dtype=torch.float64), torch.tensor([True]) + 1, torch.tensor([1], dtype=torch.int32) + 2**40)
print(torch.finfo(torch.float32).eps, torch.iinfo(torch.int64).max, torch.get_default_dtype())
for f in [lambda: torch.tensor([1]).to('bogus'), lambda: torch.tensor([1]).to(5), lambda: torch.finfo(torch.int64),
          lambda: torch.iinfo(torch.float32), lambda: torch.set_default_dtype(torch.int64), lambda: torch.tensor([1]).half()]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
""",
    "methods": """\
import torch
a = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
print(a.clone(), a.detach(), a.abs(), a.exp().log(), a.relu(), a.sigmoid(), a.t(), a.T, a.float(), a.long(), a.double())
print(a.numel(), a.dim(), a.size(), a.stride(), a.is_contiguous(), a.t().is_contiguous(), a.item() if a.numel() == 1 else 0)
print(a.add(1), a.sub(a), a.mul(2), a.div(2), a.pow(2), a.neg(), a.sum(), a.fill_(2), a.zero_(), a.clamp_(0, 1))
print(a.device, a.requires_grad, a.grad, a.is_leaf, a.tolist(), len(a), list(a), [r.sum().item() for r in a])
b = a.clone()
b += 1
b -= 0.5
b *= 3
b /= 2
print(b, b.shape == (2, 2), b.shape == torch.Size([2, 2]), tuple(b.shape), b.shape[0], str(b.dtype))
print(a.cpu(), a.to('cpu'), a.contiguous(), a.view_as(b) if hasattr(a, 'view_as') else 0, torch.is_tensor(a))
for bad in ['nosuch', 'cuda', '__len__', 'numpy', 'data_ptr']:
    try:
        print(getattr(a, bad)())
    except Exception as e:
        print(type(e).__name__)
""",
    "repr": """\
import torch
print(torch.tensor(1.5), torch.tensor([1e10, 1e-10]), torch.tensor([float('nan'), float('inf'), -float('inf')]))
print(torch.arange(2000.0), torch.zeros(2, 0, 3), torch.tensor([[True, False]]), torch.tensor([123456789012]))
print(torch.ones(2, 2, requires_grad=True) * 2, torch.nn.Parameter(torch.ones(2)), repr(torch.float32), torch.Size([2, 3]))
print(torch.randn(0), torch.tensor([0.1, 0.25]) * 1e-8, torch.tensor([1.0, 2.0]).double(), f"{torch.tensor(2.5):.2f}" if False else 0)
print(str(torch.ones(1)), format(torch.tensor(3.0).item(), '.3f'), torch.arange(30).reshape(3, 10).float() / 7)
""",
    "nn_layers": """\
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
lin = nn.Linear(3, 2)
print(lin, lin.weight.shape, lin(torch.ones(1, 3)).shape)
seq = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Dropout(0.1), nn.Linear(3, 2), nn.LogSoftmax(dim=1))
seq.eval()
print(seq, seq(torch.ones(2, 4)).shape, len(list(seq.parameters())), [n for n, _ in seq.named_parameters()])
ln = nn.LayerNorm(3)
emb = nn.Embedding(5, 2)
print(ln(torch.arange(6.0).reshape(2, 3)), emb(torch.tensor([0, 4])).shape, nn.GELU()(torch.ones(1)), nn.SiLU()(torch.ones(1)))
print(nn.Tanh()(torch.zeros(1)), nn.Sigmoid()(torch.zeros(1)), nn.Softmax(0)(torch.ones(2)), nn.Flatten()(torch.ones(2, 2, 2)).shape)
print(nn.Identity()(5), nn.CrossEntropyLoss()(torch.ones(2, 3), torch.tensor([0, 2])), nn.MSELoss()(torch.ones(2), torch.zeros(2)))
print(F.cross_entropy(torch.ones(2, 3), torch.tensor([1, 1])), F.mse_loss(torch.ones(2), torch.ones(2)), F.embedding(torch.tensor([1]), torch.eye(3)))
print(F.layer_norm(torch.ones(2, 2), (2,)), F.dropout(torch.ones(4), 0.0), F.softmax(torch.ones(3), dim=0), F.relu(torch.tensor([-1.0])))
for f in [lambda: lin(torch.ones(1, 4)), lambda: emb(torch.tensor([5])), lambda: emb(torch.tensor([-1])), lambda: nn.Linear(-1, 2),
          lambda: nn.Dropout(2.0), lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])), lambda: ln(torch.ones(2, 4)),
          lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0.5, 1.0])), lambda: nn.Linear(2, 2)(5), lambda: seq[10],
          lambda: F.mse_loss(torch.ones(2), torch.ones(3)), lambda: nn.Embedding(0, 0)(torch.tensor([0]))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
""",
    "nn_module": """\
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.blocks = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1)})
        self.register_buffer("scale", torch.ones(1))
        self.p = nn.Parameter(torch.zeros(2))
    def forward(self, x):
        for b in self.blocks:
            x = b(x).relu()
        return self.heads["a"](self.fc(x) + self.p) * self.scale
torch.manual_seed(1)
net = Net()
print(net)
print(net(torch.ones(3, 2)).shape, len(net.parameters()), [n for n, _ in net.named_buffers()], len(net.state_dict()))
sd = net.state_dict()
net.load_state_dict(sd)
try:
    net.load_state_dict({"bogus": torch.ones(1)})
except Exception as e:
    print(type(e).__name__)
print(net.load_state_dict({"bogus": torch.ones(1)}, strict=False) if False else 0, net.training, net.eval().training)
net.zero_grad()
net.requires_grad_(False)
print(all(not p.requires_grad for p in net.parameters()), [n for n, _ in net.named_children()], len(net.modules()))
net.apply(lambda m: None)
try:
    net.fc = 5
    print(net.fc)
except Exception as e:
    print(type(e).__name__)
class Bad(nn.Module):
    def __init__(self):
        self.x = nn.Linear(1, 1)
try:
    Bad()
except Exception as e:
    print(type(e).__name__)
""",
    "nn_init": """\
import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 4)
for f in [nn.init.uniform_, nn.init.normal_, nn.init.zeros_, nn.init.ones_, nn.init.xavier_uniform_, nn.init.xavier_normal_,
          nn.init.kaiming_uniform_, nn.init.kaiming_normal_]:
    print(f(w).shape)
print(nn.init.constant_(w, 0.5)[0], nn.init.calculate_gain('relu'), nn.init.calculate_gain('leaky_relu', 0.2))
for f in [lambda: nn.init.xavier_uniform_(torch.empty(3)), lambda: nn.init.calculate_gain('bogus'), lambda: nn.init.kaiming_uniform_(torch.empty(0, 0))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
""",
    "optim": """\
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[1.0], [2.0]])
for opt in [torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, nesterov=True), torch.optim.Adam(model.parameters(), lr=0.01, amsgrad=True),
            torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)]:
    for step in range(3):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    opt.param_groups[0]["lr"] = 0.001
    print(type(opt).__name__, round(loss.item(), 4))
for f in [lambda: torch.optim.SGD(model.parameters(), lr=-1), lambda: torch.optim.Adam(model.parameters(), betas=(2, 0)),
          lambda: torch.optim.SGD([], lr=0.1), lambda: torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True),
          lambda: torch.optim.Adam(5), lambda: torch.optim.SGD(model.parameters(), lr=0.1).step(lambda: 1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
""",
    "compile": """\
import torch
@torch.compile
def f(x):
    return x * 2 + 1
print(f(torch.ones(2)), f(torch.ones(3)))
g = torch.compile(lambda x: x.relu())
print(g(torch.tensor([-1.0, 1.0])))
@torch.compiler.disable
def h(x):
    return x
print(h(3))
for i in range(5):
    print(f(torch.full((2,), float(i))))
""",
    "wrong_kwargs": attempt(["torch.zeros(2, sizee=3)", "torch.sum(torch.ones(2), dim=0, keepdims=True)", "torch.ones(2).sum(axis=0)",
                             "torch.add(torch.ones(2), other=torch.ones(2), alph=2)", "torch.cat([torch.ones(1)], axis=0)",
                             "torch.softmax(torch.ones(2))", "torch.softmax(torch.ones(2), dim='x')", "torch.ones(2).view(size=2)",
                             "torch.tensor([1], requires_grad='yes')", "torch.randn(2, generator=None)", "torch.ones(2).max(dim=None)",
                             "torch.ones(2).transpose(0)", "torch.ones(2).reshape()", "torch.arange()", "torch.linspace(0, 1)",
                             "torch.full((2,))", "torch.ones(2).to()", "torch.ones(2).clamp(min='a')", "torch.ones(2).sum(0, 0, 0, 0)",
                             "torch.nn.functional.softmax(torch.ones(2), 0, 0, 0)", "torch.ones(2).split(1, 0, 0)", "torch.where(torch.ones(2) > 0)"]),
    "iteration": """\
import torch
a = torch.arange(6).reshape(3, 2)
for row in a:
    print(row, row.sum().item())
for x in torch.tensor([1.5, 2.5]):
    print(float(x), int(x), bool(x), x.item())
print(list(torch.tensor([])), [t.tolist() for t in a.unbind(1)], len(torch.ones(4, 2)), dict(zip(['a', 'b'], torch.tensor([1, 2]))))
try:
    for x in torch.tensor(1.0):
        pass
except TypeError as e:
    print("TypeError")
try:
    len(torch.tensor(1.0))
except TypeError as e:
    print("TypeError")
print(bool(torch.tensor([0])), int(torch.tensor([7])), float(torch.tensor(2)))
try:
    bool(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError")
""",
}

STDLIB = {
    "math": attempt(["math.sqrt(2)", "math.sqrt(-1)", "math.log(0)", "math.log(8, 2)", "math.log(1, 1)", "math.exp(1000)",
                     "math.factorial(20)", "math.factorial(21)", "math.factorial(-1)", "math.factorial(10**18)",
                     "math.comb(10, 3)", "math.comb(10**18, 10**17)", "math.comb(60, 30)", "math.gcd(12, 18)", "math.lcm(4, 6)",
                     "math.isqrt(10**18)", "math.isqrt(-1)", "math.floor(2.5)", "math.ceil(-2.5)", "math.floor(float('inf'))",
                     "math.trunc(float('nan'))", "math.pow(0, -1)", "math.fsum([0.1] * 10)", "math.prod(range(1, 30))",
                     "math.isclose(1, 1.0000000001)", "math.hypot(3, 4)", "math.atan2(1, 0)", "math.fmod(5, 0)",
                     "math.gamma(0)", "math.lgamma(-1)", "math.copysign(1, -0.0)", "math.modf(2.5)", "math.remainder(5, 3)",
                     "math.pi", "math.inf > 1e308", "math.isnan(math.nan)", "math.degrees(math.pi)", "math.erf(0.5)",
                     "math.acos(2)", "math.asin(0.5)", "math.cosh(1000)", "math.ldexp(1, 2)"]).replace("try:", "import math\ntry:", 1),
    "sys_time": "import sys\nimport time\n" + attempt(["sys.argv", "sys.maxsize", "sys.getrecursionlimit()", "sys.setrecursionlimit(150)",
                                                      "sys.setrecursionlimit(-5)", "sys.setrecursionlimit('x')", "sys.stdout.write('hi\\n')",
                                                      "sys.stdout.write(5)", "sys.version_info[0]", "sys.platform",
                                                      "time.perf_counter() >= 0", "time.time() > 0", "time.sleep(0)", "time.sleep(-1)",
                                                      "time.sleep('x')", "time.monotonic_ns() > 0", "sys.stderr.write('err\\n')",
                                                      "sys.stdout.flush()", "sys.bogus"]),
    "imports": attempt(["__name__"]) + """\
for stmt in ["import os", "import torch.nn.functional as F", "from torch import nn, optim", "from math import sqrt as s",
             "import numpy", "from torch import nosuch", "import torch.bogus"]:
    pass
try:
    import os
except ImportError as e:
    print(type(e).__name__, e)
try:
    from torch import nosuch
except ImportError as e:
    print(type(e).__name__, e)
try:
    import torch.bogus
except ImportError as e:
    print(type(e).__name__, e)
import torch.nn.functional as F
from math import sqrt as s, pi
import sys, time, math
print(s(4), pi, F.relu, math.floor(1.5))
""",
}

LANGUAGE = {
    "comprehensions": """\
print([x * y for x in range(4) for y in range(x) if (x + y) % 2])
print({k: v for k, v in zip('abc', range(3))}, {x % 3 for x in range(10)}, sum(x * x for x in range(10)))
print([[j for j in range(i)] for i in range(4)], list(x for x in 'ab'), any(x > 3 for x in range(5)))
print(max((len(w), w) for w in "the quick brown".split()), dict((i, i * i) for i in range(3)))
""",
    "closures_lambdas": """\
fs = [lambda x, i=i: x + i for i in range(3)]
print([f(10) for f in fs])
def compose(*fns):
    def run(x):
        for f in reversed(fns):
            x = f(x)
        return x
    return run
print(compose(str, abs, lambda v: v - 10)(3))
def kw(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, sorted(kw.items()))
print(kw(1, c=3), kw(1, 2, 3, 4, c=5, e=6), kw(*[1, 2], **{"c": 7, "z": 0}))
for bad in ["kw()", "kw(1)", "kw(1, c=1, a=2)", "kw(1, **{1: 2})", "kw(*5)", "kw(1, **[1])"]:
    pass
try:
    kw()
except TypeError as e:
    print(e)
try:
    kw(1, c=1, a=2)
except TypeError as e:
    print(e)
try:
    kw(*5)
except TypeError as e:
    print(e)
try:
    kw(1, c=1, **{"c": 2})
except TypeError as e:
    print(e)
g = 0
def setg():
    global g
    g += 1
setg()
print(g)
""",
    "control": """\
i = 0
while True:
    i += 1
    if i % 2:
        continue
    if i > 10:
        break
else:
    print("never")
for j in range(3):
    pass
else:
    print("loop else", j)
x = 5
print("big" if x > 3 else "small", x > 3 and "yes" or "no", not x, 0 < x <= 5 < 6, 1 < 2 > 0 == 0)
a = b = [1]
a.append(2)
print(b, a is b, [1] is [1], None is None, x is not None)
(p, (q, r)), s = (1, (2, 3)), 4
first, *mid, last = range(6)
print(p, q, r, s, first, mid, last)
for k, (u, v) in enumerate([(1, 2), (3, 4)]):
    print(k, u, v)
try:
    a, b = 1, 2, 3
except ValueError as e:
    print(e)
try:
    a, b, c = [1]
except ValueError as e:
    print(e)
try:
    a, b = 5
except TypeError as e:
    print(e)
del a
try:
    print(a)
except NameError as e:
    print(e)
""",
    "fstrings_format": attempt(["f'{3.14159:10.3f}|{42:<6}|{42:^6}|{42:>+6}|{-0.0}|{1e21}|{1/3}'", "f'{\"x\"!s:>{3}}{[1, 2]!r}'",
                                "'{:,.2f}'.format(1234567.891)", "'{:e}'.format(0.000123)", "'{:g}'.format(1e-20)", "'{:%}'.format(0.25)",
                                "'{:08.3f}'.format(-3.5)", "'{:_}'.format(10**9)", "'{:c}'.format(65)", "'{:b}'.format(-5)", "'{:o}'.format(8)",
                                "'{:X}'.format(255)", "'{:n}'.format(5)", "'{:=+8}'.format(5)", "'{:s}'.format(5)", "'{:d}'.format('a')",
                                "'{:.3s}'.format('abcdef')", "'{!x}'.format(1)", "'{0[1]}'.format([5, 6])", "'{0.real}'.format(5)",
                                "'{:.{}f}'.format(1.5, 2)", "'{}' .format(float('nan'))", "f'{float(\"inf\"):f}'", "'%.0f %.1f' % (0.5, 0.25)",
                                "'%5s|%-5s|%05d|%+d|% d' % ('a', 'b', 42, 3, 4)", "'%.3e|%G|%o|%X|%i' % (1234.5, 1e-10, 8, 255, 3.7)",
                                "'%s' % [1, 2]", "'%s %s' % [1, 2]", "'%d' % 1e20", "'%d' % float('nan')", "'%.500f' % 1.0",
                                "'%999999999d' % 1", "'{:999999999}'.format(1)", "f'{1:{\"\"}}'", "format(1e-320, '.3g')", "format(-1e308 * 10, '')"]),
    "ints": attempt(["2**62 + 2**62", "-2**63 - 1", "(-2**63) // -1", "(-2**63) % -1", "abs(-2**63)", "-(-2**63)", "2**64",
                     "3 ** 40", "(-3) ** 39", "10 ** -2", "0 ** 0", "0 ** -1", "2 ** 0.5", "(-8) ** (1/3)", "7 // 0", "7 % 0",
                     "7.0 // 0", "7 / 0", "1 << 63", "1 << 64", "1 << -1", "-1 >> 100", "5 >> 64", "~(2**63 - 1)", "9223372036854775807 * 2",
                     "int('9223372036854775807') + 1", "sum([2**62, 2**62])", "divmod(-2**63, -1)", "round(2**62 * 1.0)", "int(2.0**63)",
                     "int(-2.0**63)", "2**63 - 1 == 2.0**63", "hash(2**62)", "len(range(-2**63, 2**63 - 1))", "range(-2**63, 2**63 - 1)[-1]",
                     "range(0, 2**62, 3)[2**60]", "[1, 2][2**63 - 1]", "[1, 2][-2**63]", "'ab'[2**62:]", "(1, 2)[:-2**63]",
                     "list(range(10))[::2**62]", "list(range(10))[::-2**63]", "1e308 * 10", "-1e308 * 10", "1e-320 / 1e10",
                     "float(10**18) ** 20", "2.0 ** 10000", "(-2.0) ** 0.5", "0.0 ** -1", "1 % float('inf')", "-1 % float('inf')",
                     "math_floor_div := 5" if False else "5 // -2", "True + True", "True << 70", "False ** -1"]),
    "nan_compare": attempt(["float('nan') == float('nan')", "float('nan') < 1", "float('nan') != float('nan')", "max(float('nan'), 1)",
                            "max(1, float('nan'))", "min([float('nan'), 0, 1])", "sorted([3, float('nan'), 1, 2])",
                            "[float('nan')] == [float('nan')]", "n = float('nan')" if False else "float('nan') in [float('nan')]",
                            "{float('nan'): 1}", "len({float('nan'), float('nan')})", "round(float('nan'), 2)",
                            "int(float('nan'))", "float('nan') // 1", "float('inf') % 1", "divmod(float('inf'), 1)", "float('inf') - float('inf')",
                            "float('inf') * 0", "abs(float('-nan'))", "hash(float('nan')) == 0 or True", "'%d' % float('inf')",
                            "f'{float(\"nan\"):.2f}'", "float('nan') ** 0", "1 ** float('nan')", "str(-0.0)", "-0.0 == 0.0",
                            "1e16 + 1 == 1e16", "0.1 + 0.2", "repr(1/3)", "5e-324 / 2", "float('1e-400')", "int(1e308)"]),
    "slicing": """\
s = list(range(10))
print(s[::3], s[-3:], s[:-7:-2], s[100:], s[-100:2], s[3:1], s[::-1][::2], 'hello'[1:-1:2], (1, 2, 3)[::-1])
s[2:5] = []
s[:0] = ['x', 'y']
print(s)
del s[::3]
print(s)
t = s[:]
t[0] = 'changed'
print(s[0], t[0])
try:
    s[::-1] = [1]
except ValueError as e:
    print(e)
try:
    s['a':]
except TypeError as e:
    print(e)
print(s[None:None:None], s[1.0:] if False else 0, s[True:])
""",
    "scopes": """\
x = "global"
def outer():
    x = "enclosing"
    def inner():
        nonlocal x
        x = "inner"
        return x
    inner()
    return x
print(outer(), x)
class K:
    x = "class"
    y = [x for _ in range(1)]
    def m(self):
        return x
print(K.x, K().m(), K.y)
def f():
    global newg
    newg = 1
f()
print(newg)
def shadow(print=print):
    print("shadow ok")
shadow()
len = lambda x: 42
print(len([1]))
del len
print(len([1]))
""",
    "recursion_ok": """\
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(15))
def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))
print(ack(2, 3))
def hanoi(n, a, b, c, moves):
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append((a, c))
        hanoi(n - 1, b, a, c, moves)
    return moves
print(len(hanoi(8, 'a', 'b', 'c', [])))
""",
    "generators_rejected": "def g():\n    yield 1\n",
    "walrus_rejected": "if (n := 3) > 2:\n    print(n)\n",
    "match_rejected": "match x:\n    case 1:\n        pass\n",
    "dict_order_and_views": """\
d = {}
for i in range(20):
    d[str(i)] = i
for i in range(0, 20, 2):
    del d[str(i)]
d["new"] = 0
print(list(d), list(d.values())[:3], list(d.items())[-1], len(d))
k = d.keys()
d["later"] = 1
print("later" in k, len(k))
print({**d, "x": 1}["x"], dict(sorted(d.items())[:2]))
""",
    "with_stmt": """\
import torch
with torch.no_grad():
    x = torch.ones(2, requires_grad=True) * 2
print(x.requires_grad)
with torch.inference_mode():
    print(torch.is_inference_mode_enabled())
try:
    with 5:
        pass
except Exception as e:
    print(type(e).__name__)
class CM:
    def __enter__(self):
        print("enter")
        return self
    def __exit__(self, *a):
        print("exit", a[0] is not None)
        return True
with CM() as c:
    raise ValueError("suppressed")
print("after")
""",
}

NASTY = {
    "inf_loop": "while True:\n    pass\n",
    "inf_loop_work": "x = 0\nwhile 1:\n    x = (x * 31 + 7) % 1000003\n",
    "inf_for_append": "a = [1]\nfor x in a:\n    a.append(x)\n",
    "inf_recursion": "def f():\n    return f()\nf()\n",
    "inf_mutual_recursion": "def a(n):\n    return b(n + 1)\ndef b(n):\n    return a(n)\na(0)\n",
    "inf_recursion_caught": "def f(n):\n    try:\n        return f(n + 1)\n    except RecursionError:\n        return f(n + 1)\nf(0)\n",
    "recursion_in_except_loop": "def f():\n    try:\n        f()\n    finally:\n        f()\nf()\n",
    "raise_recursion_limit": "import sys\nsys.setrecursionlimit(10**9)\ndef f(n):\n    return f(n + 1)\nf(0)\n",
    "raise_recursion_limit_repr": "import sys\nsys.setrecursionlimit(300)\nclass R:\n    def __repr__(self):\n        return repr(self)\nrepr(R())\n",
    "recursion_lambda": "f = lambda: f()\nf()\n",
    "recursion_init": "class A:\n    def __init__(self):\n        A()\nA()\n",
    "recursion_getattr": "class A:\n    @property\n    def x(self):\n        return self.x\nA().x\n",
    "recursion_str_format": "class A:\n    def __format__(self, s):\n        return f'{self}'\n    def __str__(self):\n        return format(self, '')\nprint(A())\n",
    "recursion_eq_list": "class A:\n    def __eq__(self, o):\n        return [self] == [o]\nprint(A() == A())\n",
    "recursion_hash": "class A:\n    def __hash__(self):\n        return hash(self)\n{A(): 1}\n",
    "recursion_iter": "class A:\n    def __iter__(self):\n        return iter(self)\nlist(A())\n",
    "recursion_len": "class A:\n    def __len__(self):\n        return len(self)\nlen(A())\n",
    "recursion_sort_key": "def k(x):\n    return sorted([x], key=k)\nsorted([1], key=k)\n",
    "recursion_map": "def f(x):\n    return list(map(f, [x]))\nf(1)\n",
    "recursion_call_dunder": "class A:\n    def __call__(self):\n        return self()\nA()()\n",
    "recursion_getitem": "class A:\n    def __getitem__(self, i):\n        return self[i]\nA()[0]\n",
    "recursion_nn_module": "import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n        return self(x)\nM()(1)\n",
    "list_times_huge": "print([0] * 10**12)\n",
    "list_times_huge2": "x = [1, 2] * (2**62)\n",
    "list_times_big_caught": "try:\n    x = [None] * 10**15\nexcept MemoryError:\n    print('MemoryError')\n",
    "list_imul_huge": "a = [1]\na *= 10**13\n",
    "str_times_huge": "print('a' * 10**15)\n",
    "str_times_huge2": "s = 'abc' * (2**61)\n",
    "tuple_times_huge": "t = (1,) * 10**14\n",
    "str_doubling": "s = 'x'\nwhile True:\n    s = s + s\n",
    "list_doubling": "a = [0]\nwhile True:\n    a = a + a\n",
    "list_extend_self_doubling": "a = [0]\nfor i in range(100):\n    a.extend(a)\n",
    "str_join_huge": "print(len(','.join(['abc'] * 1000) * 10**12))\n",
    "zfill_huge": "'1'.zfill(10**15)\n",
    "center_huge": "'x'.center(2**62)\n",
    "ljust_huge": "'x'.ljust(10**12, '-')\n",
    "format_width_huge": "print(format(1, '10000000000'))\n",
    "fstring_width_huge": "print(f'{1:>{10**12}}')\n",
    "percent_width_huge": "print('%1000000000000d' % 1)\n",
    "percent_prec_huge": "print('%.1000000000000f' % 1.0)\n",
    "replace_huge": "s = 'ab' * 5\nfor i in range(3):\n    s = s.replace('a', 'a' * 100000)\n    print(len(s))\n",
    "range_list_huge": "print(len(list(range(10**12))))\n",
    "range_sum_huge": "print(sum(range(10**15)))\n",
    "range_sorted_huge": "print(sorted(range(10**13))[0])\n",
    "range_set_huge": "print(len(set(range(10**13))))\n",
    "range_tuple_huge": "print(len(tuple(range(2**62))))\n",
    "range_in_huge": "print(10**18 - 1 in range(10**18), 'x' in range(10**12))\n",
    "range_max_huge": "print(max(range(10**14)), min(range(-10**14, 0)))\n",
    "any_all_huge": "print(any(x < 0 for x in range(10**12)), all(range(1, 10**12)))\n",
    "enumerate_zip_huge": "for i, (a, b) in enumerate(zip(range(10**12), range(10**12))):\n    pass\n",
    "list_index_huge": "print(list(range(10**7)).index(-1))\n",
    "str_count_huge": "print(('ab' * 10**6).count('b'))\n",
    "dict_fromkeys_huge": "d = dict.fromkeys(range(10**12))\n",
    "map_huge": "print(sum(map(abs, range(10**12))))\n",
    "filter_huge": "print(list(filter(None, range(10**12)))[:3])\n",
    "reversed_huge": "print(next(reversed(range(10**18))), list(reversed(range(10**12)))[:2])\n",
    "comp_huge": "print(len([x for x in range(10**12)]))\n",
    "math_factorial_huge": "import math\nprint(math.factorial(10**15))\n",
    "math_comb_huge": "import math\nprint(math.comb(2**62, 2**61))\n",
    "math_perm_huge": "import math\nprint(math.prod(range(1, 10**15)))\n",
    "math_fsum_huge": "import math\nprint(math.fsum(range(10**14)))\n",
    "math_isqrt_huge": "import math\nprint(math.isqrt(2**63 - 1), math.gcd(2**62, 3**39))\n",
    "pow_mod_huge": "print(pow(3, 2**62, 10**18 + 9))\n",
    "time_sleep_long": "import time\ntime.sleep(10**9)\n",
    "time_sleep_inf": "import time\ntime.sleep(float('inf'))\n",
    "time_sleep_nan": "import time\ntime.sleep(float('nan'))\n",
    "set_num_threads_huge": "import torch\ntorch.set_num_threads(10**6)\nprint(torch.ones(4) + 1)\n",
    "set_num_threads_neg": "import torch\ntorch.set_num_threads(-1)\nprint(torch.ones(4) + 1)\n",
    "set_num_threads_zero": "import torch\ntorch.set_num_threads(0)\nprint(torch.ones(4).sum())\n",
    "torch_zeros_huge": "import torch\nx = torch.zeros(10**6, 10**6)\n",
    "torch_ones_huge_caught": "import torch\ntry:\n    torch.ones(10**6, 10**6)\nexcept RuntimeError as e:\n    print('RuntimeError')\n",
    "torch_zeros_overflow": "import torch\nx = torch.zeros(2**40, 2**40)\n",
    "torch_zeros_overflow3": "import torch\nx = torch.zeros(2**31, 2**31, 2**31)\n",
    "torch_empty_huge": "import torch\nx = torch.empty(2**62)\n",
    "torch_full_huge": "import torch\nx = torch.full((10**5, 10**5), 1.0)\n",
    "torch_rand_huge": "import torch\nx = torch.rand(10**12)\n",
    "torch_randn_huge": "import torch\nx = torch.randn(2**20, 2**20)\n",
    "torch_randint_huge": "import torch\nx = torch.randint(0, 5, (10**6, 10**6))\n",
    "torch_arange_huge": "import torch\nx = torch.arange(10**15)\n",
    "torch_arange_huge_step": "import torch\nx = torch.arange(0, 1, 1e-15)\n",
    "torch_linspace_huge": "import torch\nx = torch.linspace(0, 1, 10**13)\n",
    "torch_eye_huge": "import torch\nx = torch.eye(10**7)\n",
    "torch_ones_neg": "import torch\nx = torch.ones(-1)\n",
    "torch_ones_neg2": "import torch\nx = torch.ones(3, -2)\n",
    "torch_zeros_like_expand": "import torch\nx = torch.ones(1).expand(10**7, 10**7)\nprint(x.shape)\ny = x.contiguous()\n",
    "torch_expand_sum": "import torch\nx = torch.ones(1).expand(2**31, 2**31)\nprint(x.shape, x[5, 7], x.stride(), x.numel())\n",
    "torch_expand_clone": "import torch\nx = torch.ones(1, 1).expand(10**6, 10**6).clone()\n",
    "torch_expand_mul": "import torch\nx = torch.ones(1).expand(10**12) * 2\n",
    "torch_view_huge": "import torch\nx = torch.ones(0).view(2**62, 0, 4)\nprint(x.shape, x.numel())\n",
    "torch_reshape_zero_huge": "import torch\nx = torch.ones(0).reshape(0, 2**62)\nprint(x.shape, x.sum())\nprint(x.t().contiguous().shape)\n",
    "torch_as_strided_huge": "import torch\nx = torch.ones(4).as_strided((10**9, 10**9), (0, 0))\nprint(x.shape)\nprint(x[10**8, 5])\n",
    "torch_as_strided_oob": "import torch\nx = torch.ones(4).as_strided((4,), (10**15,))\nprint(x)\n",
    "torch_as_strided_neg_offset": "import torch\nx = torch.ones(4).as_strided((2,), (1,), -5)\nprint(x)\n",
    "torch_as_strided_big_offset": "import torch\nx = torch.ones(4).as_strided((2,), (1,), 2**62)\nprint(x)\n",
    "torch_narrow_huge": "import torch\nprint(torch.ones(4).narrow(0, 2**62, 2**62))\n",
    "torch_matmul_huge": "import torch\na = torch.ones(1, 1).expand(10**5, 10**5)\nprint((a @ a).shape)\n",
    "torch_cat_huge": "import torch\na = torch.ones(1).expand(2**40)\nprint(torch.cat([a, a]).shape)\n",
    "torch_repeat_huge": "import torch\nprint(torch.ones(2).repeat(10**12))\n",
    "torch_tensor_nested_list": "import torch\nx = [1.0]\nfor i in range(64):\n    x = [x]\nprint(torch.tensor(x).shape)\n",
    "torch_tensor_self_list": "import torch\na = [1]\na.append(a)\ntorch.tensor(a)\n",
    "torch_tensor_self_list2": "import torch\na = []\na.append(a)\nprint(torch.tensor(a))\n",
    "torch_many_dims": "import torch\nx = torch.ones(*([1] * 200))\nprint(x.shape)\nprint(x)\n",
    "torch_many_dims_view": "import torch\nx = torch.ones(1).view(*([1] * 1000))\nprint(x.dim())\nprint(x.sum())\n",
    "torch_unsqueeze_loop": "import torch\nx = torch.ones(1)\nfor i in range(500):\n    x = x.unsqueeze(0)\nprint(x.dim())\nprint(x)\n",
    "torch_multinomial_huge": "import torch\nprint(torch.multinomial(torch.ones(3), 10**12, replacement=True))\n",
    "torch_randint_range": "import torch\nprint(torch.randint(-2**63, 2**63 - 1, (3,)))\n",
    "torch_random_range": "import torch\nx = torch.zeros(3, dtype=torch.int64)\nprint(x.random_(-2**63, 2**63 - 1))\n",
    "torch_split_huge": "import torch\nprint(torch.ones(4).split(2**62))\nprint(torch.ones(4).chunk(2**62))\n",
    "torch_tolist_expanded": "import torch\nprint(len(torch.ones(1).expand(10**12).tolist()))\n",
    "torch_iter_expanded": "import torch\nfor row in torch.ones(1, 1).expand(10**12, 1):\n    pass\n",
    "torch_unbind_expanded": "import torch\nprint(len(torch.ones(1).expand(10**12).unbind(0)))\n",
    "torch_split_expanded": "import torch\nprint(len(torch.ones(1).expand(10**12).split(1)))\n",
    "torch_split_max": "import torch\nprint(torch.ones(4).split(2**63 - 1), torch.ones(4).chunk(2**63 - 1))\n",
    "torch_split_sizes_overflow": "import torch\nprint(torch.ones(4).split([2**62, 2**62, 2**62, 2**62, 4]))\n",
    "torch_dim_huge": "import torch\nprint(torch.ones(2).sum(2**62))\n",
    "torch_dim_min": "import torch\nprint(torch.ones(2).sum(-2**63))\n",
    "torch_unsqueeze_min": "import torch\nprint(torch.ones(2).unsqueeze(-2**63))\n",
    "torch_transpose_min": "import torch\nprint(torch.ones(2, 2).transpose(-2**63, 2**63 - 1))\n",
    "torch_index_min": "import torch\nprint(torch.ones(2)[-2**63])\n",
    "torch_slice_min": "import torch\nprint(torch.ones(5)[-2**63:2**63 - 1:2**62])\n",
    "torch_select_min": "import torch\nprint(torch.ones(5).select(0, -2**63))\n",
    "torch_narrow_min": "import torch\nprint(torch.ones(5).narrow(0, -2**63, 1))\n",
    "torch_gather_min": "import torch\nprint(torch.ones(5).gather(0, torch.tensor([-2**63])))\n",
    "torch_index_select_min": "import torch\nprint(torch.ones(5).index_select(0, torch.tensor([2**63 - 1])))\n",
    "torch_embedding_min": "import torch.nn.functional as F\nimport torch\nprint(F.embedding(torch.tensor([-2**63]), torch.ones(3, 2)))\n",
    "torch_scatter_neg": "import torch\nprint(torch.zeros(5).scatter_add(0, torch.tensor([-1]), torch.ones(1)))\n",
    "torch_cross_entropy_min": "import torch\nimport torch.nn.functional as F\nprint(F.cross_entropy(torch.ones(1, 3), torch.tensor([-2**63])))\n",
    "torch_view_min": "import torch\nprint(torch.ones(4).view(-2**63))\n",
    "torch_reshape_neg_many": "import torch\nprint(torch.ones(4).reshape(-1, -1, 2))\n",
    "torch_full_int_overflow": "import torch\nprint(torch.full((2,), 2**63 - 1) + 1, torch.tensor([2**63 - 1]) * torch.tensor([2]))\n",
    "torch_pow_int_neg": "import torch\nprint(torch.tensor([2, 0]) ** torch.tensor([-1, -1]))\n",
    "torch_int_div_min": "import torch\nprint(torch.tensor([-2**63]) // torch.tensor([-1]), torch.tensor([-2**63]) % torch.tensor([-1]))\n",
    "torch_abs_min": "import torch\nprint(torch.tensor([-2**63]).abs(), -torch.tensor([-2**63]))\n",
    "torch_to_int_nan": "import torch\nprint(torch.tensor([float('nan'), float('inf'), 1e30]).long(), int(torch.tensor(1e30)))\n",
    "torch_item_nan_int": "import torch\nprint(int(torch.tensor(float('nan'))))\n",
    "torch_linspace_nan": "import torch\nprint(torch.linspace(float('nan'), float('inf'), 3), torch.arange(0, float('nan'), 1))\n",
    "torch_arange_overflow": "import torch\nprint(torch.arange(-2**63, 2**63 - 1, 2**62))\n",
    "torch_arange_float_big": "import torch\nprint(torch.arange(0.0, 1e30, 1e29))\n",
    "torch_manual_seed_big": "import torch\ntorch.manual_seed(2**63 - 1)\nprint(torch.rand(2))\ntorch.manual_seed(-2**63)\nprint(torch.rand(2))\n",
    "torch_clamp_nan": "import torch\nprint(torch.clamp(torch.tensor([1.0, float('nan')]), float('nan'), 0))\n",
    "torch_backward_twice": "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\n",
    "torch_grad_cycle": "import torch\nx = torch.ones(2, requires_grad=True)\nfor i in range(2000):\n    x = x * 1.0001\nx.sum().backward()\nprint('ok')\n",
    "torch_deep_graph": "import torch\nx = torch.ones(1, requires_grad=True)\ny = x\nfor i in range(5000):\n    y = y + 1\nprint(y.grad_fn is not None)\ndel y\nprint('freed')\n",
    "torch_inplace_leaf": "import torch\nx = torch.ones(2, requires_grad=True)\nx += 1\n",
    "torch_grad_assign_bad": "import torch\nx = torch.ones(2, requires_grad=True)\nx.grad = torch.ones(3)\nx.grad = 5\n",
    "torch_requires_grad_int": "import torch\nx = torch.ones(2, dtype=torch.int64)\nx.requires_grad_()\n",
    "torch_tensor_in_set": "import torch\na = torch.ones(2)\ns = {a, a}\nprint(len(s), a in s, a in [a], a in [torch.ones(2)])\n",
    "torch_tensor_dict_key": "import torch\na = torch.ones(2)\nd = {a: 1}\nprint(d[a])\nprint(torch.ones(2) in d)\n",
    "torch_tensor_list_eq": "import torch\nprint([torch.ones(2)] == [torch.ones(2)])\n",
    "torch_tensor_sort_list": "import torch\nprint(sorted([torch.tensor(2), torch.tensor(1)]), sorted([torch.ones(2), torch.zeros(2)]))\n",
    "torch_tensor_bool_mix": "import torch\nprint(torch.ones(2) and 1)\n",
    "torch_nn_param_self": "import torch.nn as nn\nm = nn.Module()\nm.child = m\nprint(m)\n",
    "torch_nn_param_cycle": "import torch.nn as nn\na = nn.Module()\nb = nn.Module()\na.b = b\nb.a = a\nprint(len(a.modules()))\nprint(a.state_dict())\n",
    "torch_nn_sequential_self": "import torch.nn as nn\ns = nn.Sequential()\ns.append(s) if hasattr(s, 'append') else None\ns.add_module('me', s)\nprint(s)\n",
    "torch_optim_no_grad": "import torch\np = torch.nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([p], lr=0.1)\nopt.step()\nprint(p)\n",
    "list_self_print": "a = [1]\na.append(a)\nprint(a, repr(a), str(a), len(str(a)))\n",
    "dict_self_print": "d = {}\nd['self'] = d\nprint(d)\nd2 = {1: [d]}\nprint(d2)\n",
    "mutual_containers": "a = []\nb = [a]\na.append(b)\nprint(a, b)\nd = {'a': a}\na.append(d)\nprint(d)\n",
    "set_of_self_tuple": "a = []\nt = (a,)\na.append(t)\nprint(t, a)\n",
    "instance_self_repr": "class A:\n    def __repr__(self):\n        return 'A(' + repr(self.d) + ')'\na = A()\na.d = [a]\nprint(a)\n",
    "self_eq": "a = [1]\na.append(a)\nprint(a == a)\nb = [1]\nb.append(b)\nprint(a == b)\n",
    "self_lt": "a = [1]\na.append(a)\nb = [1]\nb.append(b)\nprint(a < b)\n",
    "self_in": "a = []\na.append(a)\nprint(a in a, [a] in a)\n",
    "self_hash_tuple": "a = []\nt = (a,)\na.append(t)\nprint(hash(t))\n",
    "self_sort": "a = []\na.append(a)\na.append(a)\na.sort()\nprint(len(a))\n",
    "self_extend": "a = [1, 2]\na.extend(a)\na += a\na[1:1] = a\nprint(a)\n",
    "self_dict_update": "d = {1: 2}\nd.update(d)\nd.update({k: v for k, v in d.items()})\nprint(d)\n",
    "self_set_update": "s = {1, 2}\ns.update(s)\ns |= s\ns -= s\nprint(s)\n",
    "nested_list_deep": "a = []\nfor i in range(100000):\n    a = [a]\nprint(len(str(a)))\n",
    "nested_list_deep_eq": "a = []\nb = []\nfor i in range(100000):\n    a = [a]\n    b = [b]\nprint(a == b)\n",
    "nested_dict_deep": "d = {}\nfor i in range(100000):\n    d = {'k': d}\nprint(repr(d)[:10])\n",
    "nested_tuple_deep_hash": "t = ()\nfor i in range(100000):\n    t = (t,)\nprint(hash(t) == hash(t))\n",
    "nested_list_deep_free": "a = []\nfor i in range(200000):\n    a = [a]\ndel a\nprint('freed')\n",
    "nested_instances_free": "class N:\n    pass\nn = N()\nfor i in range(200000):\n    m = N()\n    m.next = n\n    n = m\ndel n, m\nprint('freed')\n",
    "nested_dict_free": "d = {}\nfor i in range(200000):\n    d = {1: d}\nprint('built')\n",
    "nested_tensor_list": "import torch\na = []\nfor i in range(100000):\n    a = [a]\ntorch.tensor(a)\n",
    "mutate_list_while_iter": "a = [1, 2, 3, 4]\nfor x in a:\n    a.remove(x)\nprint(a)\nb = [1, 2, 3]\nfor i, x in enumerate(b):\n    del b[0]\nprint(b)\n",
    "mutate_list_clear_iter": "a = list(range(10))\nit = iter(a)\nnext(it)\na.clear()\nprint(list(it))\nb = [1, 2]\nr = reversed(b)\nb.clear()\nprint(list(r))\n",
    "dict_change_during_iter": "d = {1: 2, 3: 4}\nfor k in d:\n    d[k + 10] = 1\n",
    "dict_del_during_iter": "d = {1: 2, 3: 4, 5: 6}\nfor k in d:\n    del d[k]\n",
    "dict_change_items_iter": "d = {i: i for i in range(10)}\nfor k, v in d.items():\n    d.pop(k)\n    d[k * 100] = v\n",
    "dict_clear_during_iter": "d = {1: 2, 3: 4}\nfor k in d.values():\n    d.clear()\nprint(d)\n",
    "dict_same_size_change": "d = {1: 2, 3: 4}\ntry:\n    for k in d:\n        del d[k]\n        d[k + 100] = 0\nexcept RuntimeError as e:\n    print(e)\nprint(d)\n",
    "set_change_during_iter": "s = {1, 2, 3}\nfor x in s:\n    s.add(x + 10)\n",
    "set_discard_during_iter": "s = {1, 2, 3}\nfor x in s:\n    s.discard(x)\nprint(s)\n",
    "dict_mutating_key_eq": "class K:\n    def __init__(self, d):\n        self.d = d\n    def __hash__(self):\n        return 1\n    def __eq__(self, o):\n        self.d.clear()\n        return False\nd = {}\nd[K(d)] = 1\nd[K(d)] = 2\nprint(len(d))\n",
    "dict_mutating_hash": "class K:\n    def __hash__(self):\n        d.clear()\n        return 1\nd = {i: i for i in range(5)}\nd[K()] = 1\nprint(len(d))\n",
    "set_mutating_eq": "class K:\n    def __hash__(self):\n        return 0\n    def __eq__(self, o):\n        s.clear()\n        return True\ns = {K(), 1}\nprint(K() in s, len(s))\n",
    "list_mutating_eq": "class K:\n    def __eq__(self, o):\n        a.clear()\n        return False\na = [K(), K(), K()]\nprint(1 in a, a.count(1))\ntry:\n    a.index(1)\nexcept ValueError:\n    print('ValueError')\n",
    "list_mutating_eq_remove": "class K:\n    def __eq__(self, o):\n        del a[:]\n        return False\na = [K(), K(), 5]\ntry:\n    a.remove(5)\nexcept ValueError:\n    print('ValueError')\nprint(a)\n",
    "list_mutating_lt_sort": "class K:\n    def __lt__(self, o):\n        a.append(K())\n        a.clear()\n        return True\na = [K() for _ in range(10)]\ntry:\n    a.sort()\nexcept ValueError as e:\n    print(e)\nprint(len(a) < 100)\n",
    "list_mutating_key_sort": "a = [3, 1, 2]\ndef key(x):\n    a.clear()\n    return x\na.sort(key=key)\nprint(a)\n",
    "sorted_mutating_key": "a = [3, 1, 2]\ndef key(x):\n    a.extend([0] * 100)\n    return x\nprint(sorted(a, key=key))\n",
    "list_mutating_repr": "class K:\n    def __repr__(self):\n        a.clear()\n        return 'K'\na = [K(), K(), K()]\nprint(a)\n",
    "dict_mutating_repr": "class K:\n    def __repr__(self):\n        d.clear()\n        return 'K'\nd = {1: K(), 2: K()}\nprint(d)\n",
    "list_mutating_lt_compare": "class K:\n    def __eq__(self, o):\n        b.clear()\n        return True\na = [K(), K(), 1]\nb = [K(), K(), 2]\nprint(a == b, a < b if False else 0)\n",
    "dict_mutating_eq_compare": "class K:\n    def __eq__(self, o):\n        d2.clear()\n        return True\nd1 = {1: K(), 2: K()}\nd2 = {1: K(), 2: K()}\nprint(d1 == d2)\n",
    "list_mutating_extend_iter": "class It:\n    def __init__(self):\n        self.n = 0\n    def __iter__(self):\n        return self\n    def __next__(self):\n        self.n += 1\n        a.clear()\n        if self.n > 3:\n            raise StopIteration\n        return self.n\na = [1, 2]\na.extend(It())\nprint(a)\n",
    "list_mutating_index_key": "class I:\n    def __index__(self):\n        a.clear()\n        return 0\na = [1, 2, 3]\ntry:\n    print(a[I()])\nexcept IndexError as e:\n    print(e)\ntry:\n    a[I()] = 5\nexcept IndexError as e:\n    print(e)\na = [1, 2, 3]\ntry:\n    print(a[I():I()])\nexcept Exception as e:\n    print(type(e).__name__)\n",
    "list_mutating_insert_index": "class I:\n    def __index__(self):\n        a.clear()\n        return 5\na = [1, 2, 3]\na.insert(I(), 9)\nprint(a)\na = [1, 2]\ntry:\n    a.pop(I())\nexcept IndexError as e:\n    print(e)\n",
    "list_slice_assign_self_iter": "class It:\n    def __iter__(self):\n        a.clear()\n        return iter([7, 8])\na = [1, 2, 3]\na[0:2] = It()\nprint(a)\n",
    "max_key_mutation": "a = [1, 2, 3]\ndef k(x):\n    a.clear()\n    return x\nprint(max(a, key=k), min(a, key=k) if a else None)\n",
    "str_join_mutation": "class S:\n    def __str__(self):\n        a.clear()\n        return 's'\na = ['x', 'y']\nprint(','.join(a))\n",
    "iter_next_on_exhausted": "it = iter([1])\nprint(next(it), next(it, 'd'), next(it, 'd'))\nit = iter({1: 2})\nprint(list(it), list(it))\nz = zip([1], [2])\nprint(list(z), list(z))\n",
    "user_iter_bad_next": "class I:\n    def __iter__(self):\n        return self\n    def __next__(self):\n        raise ValueError('boom')\nfor x in I():\n    pass\n",
    "user_iter_infinite": "class I:\n    def __iter__(self):\n        return self\n    def __next__(self):\n        return 1\nprint(list(I()))\n",
    "user_iter_infinite_sum": "class I:\n    def __iter__(self):\n        return self\n    def __next__(self):\n        return 1\nprint(sum(I()), sorted(I()), set(I()))\n",
    "user_getitem_infinite": "class G:\n    def __getitem__(self, i):\n        return i\nprint(list(G()))\n",
    "user_getitem_infinite_in": "class G:\n    def __getitem__(self, i):\n        return i\nprint(-1 in G())\n",
    "user_len_huge": "class L:\n    def __len__(self):\n        return 2**62\n    def __getitem__(self, i):\n        if i > 5:\n            raise IndexError\n        return i\nprint(len(L()), list(L()), list(reversed(L())) if False else 0)\n",
    "user_len_huge_reversed": "class L:\n    def __len__(self):\n        return 2**62\n    def __getitem__(self, i):\n        return i\nprint(next(reversed(L())))\n",
    "user_index_huge": "class I:\n    def __index__(self):\n        return 2**63 - 1\nprint([1] * I())\n",
    "user_index_bad": "class I:\n    def __index__(self):\n        return 'x'\nprint([1, 2][I()])\n",
    "user_index_float": "class I:\n    def __index__(self):\n        return 1.5\nprint(range(I()))\n",
    "user_int_bad": "class I:\n    def __int__(self):\n        return 'x'\n    def __float__(self):\n        return 'y'\nprint(int(I()))\nprint(float(I()))\n",
    "user_bool_raise": "class B:\n    def __bool__(self):\n        raise ValueError('nope')\nif B():\n    pass\n",
    "user_iter_returns_self_no_next": "class I:\n    def __iter__(self):\n        return self\nfor x in I():\n    pass\n",
    "user_eq_returns_tensor": "import torch\nclass E:\n    def __eq__(self, o):\n        return torch.ones(3)\nprint(E() in [1])\n",
    "user_hash_huge": "class H:\n    def __hash__(self):\n        return 2**63 - 1\n    def __eq__(self, o):\n        return True\nprint({H(): 1, H(): 2}, hash(H()))\n",
    "user_hash_neg1": "class H:\n    def __hash__(self):\n        return -1\nprint(hash(H()), {H(): 1})\n",
    "user_exit_raises": "class CM:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        raise KeyError('exit')\nwith CM():\n    raise ValueError('body')\n",
    "user_enter_missing": "class CM:\n    pass\nwith CM():\n    pass\n",
    "exception_in_finally_loop": "for i in range(10**9):\n    try:\n        raise ValueError(i)\n    except ValueError:\n        continue\n    finally:\n        pass\n",
    "exception_chain_long": "def f(n):\n    try:\n        raise ValueError(n)\n    except ValueError:\n        if n < 150:\n            f(n + 1)\n        raise\nf(0)\n",
    "exception_huge_message": "raise ValueError('x' * 10**6)\n",
    "exception_self_arg": "e = ValueError()\ne.args = (e,)\nprint(e)\nraise e\n",
    "exception_attr_cycle": "try:\n    raise ValueError('x')\nexcept ValueError as e:\n    e.self = e\n    err = e\nprint(err.self.self)\n",
    "exception_class_not_exc": "class A:\n    pass\ntry:\n    raise A()\nexcept A:\n    print('caught')\n",
    "except_non_class": "try:\n    1 / 0\nexcept 5:\n    pass\n",
    "except_tuple_nested": "try:\n    1 / 0\nexcept ((KeyError, (ZeroDivisionError,)),):\n    print('caught')\n",
    "print_huge_sep": "print(1, 2, sep='-' * 10**6)\n",
    "print_file_kw": "print(1, file=None)\nprint(2, flush=True)\nprint(3, bogus=1)\n",
    "getattr_dunder_probe": "for n in ['__class__', '__dict__', '__init__', '__len__', '__add__', '__repr__', '__bases__', '__mro__', '__globals__', '__code__', '__closure__', '__defaults__', '__self__', '__func__', '__module__', '__qualname__', '__doc__']:\n    for o in [1, 'a', [], {}, len, lambda: 0, type, Exception(), object]:\n        try:\n            getattr(o, n)\n        except Exception as e:\n            pass\nprint('done')\n",
    "setattr_builtins": "import math\nmath.pi = 3\nprint(math.pi)\nimport torch\ntorch.ones = None\ntry:\n    torch.ones(2)\nexcept TypeError as e:\n    print(e)\nlen.x = 1\n",
    "setattr_class_dunders": "class A:\n    pass\nA.__init__ = 5\ntry:\n    A()\nexcept TypeError as e:\n    print(e)\nA.__repr__ = lambda self: 7\ntry:\n    print(A)\n    print([A.__new__ if hasattr(A, '__new__') else 0])\nexcept Exception as e:\n    print(type(e).__name__)\n",
    "reassign_class_of": "class A:\n    pass\nclass B:\n    pass\na = A()\ntry:\n    a.__class__ = B\nexcept Exception as e:\n    print(type(e).__name__)\nprint(type(a).__name__)\n",
    "builtins_shadow_exception": "ValueError = 5\ntry:\n    int('x')\nexcept Exception as e:\n    print(type(e).__name__)\n",
    "del_builtin": "try:\n    del print\nexcept NameError as e:\n    print(e)\n",
    "many_locals": "def f():\n" + "".join(f"    v{i} = {i}\n" for i in range(600)) + "    return " + " + ".join(f"v{i}" for i in range(600)) + "\nprint(f())\n",
    "many_args": "def f(*a, **k):\n    return len(a), len(k)\nprint(f(*range(5000), **{f'k{i}': i for i in range(1000)}))\n",
    "many_args_literal": "print(max(" + ", ".join(str(i) for i in range(3000)) + "))\n",
    "huge_literal_list": "x = [" + ", ".join(str(i) for i in range(20000)) + "]\nprint(len(x), sum(x))\n",
    "huge_literal_str": "x = '" + "ab" * 50000 + "'\nprint(len(x))\n",
    "huge_literal_dict": "d = {" + ", ".join(f"{i}: {i}" for i in range(5000)) + "}\nprint(len(d))\n",
    "huge_int_literal": "x = 99999999999999999999999999999999999\n",
    "huge_float_literal": "x = 1e99999\nprint(x, 1" + "0" * 400 + ".0)\n",
    "int_str_huge_digits": "print(int('9' * 5000))\n",
    "float_str_huge_digits": "print(float('1' + '0' * 5000), float('0.' + '0' * 5000 + '1'))\n",
    "deep_expr_nesting": "x = " + "(" * 150 + "1" + ")" * 150 + "\nprint(x)\n",
    "deep_unary": "print(" + "-" * 2000 + "1)\n",
    "deep_not": "print(" + "not " * 2000 + "1)\n",
    "deep_lambda": "f = " + "lambda: " * 150 + "1\nprint(f)\n",
    "deep_call_chain": "f = lambda x: x\nprint(" + "f(" * 150 + "1" + ")" * 150 + ")\n",
    "deep_attr_chain": "class A:\n    pass\na = A()\na.a = a\nprint(a" + ".a" * 3000 + " is a)\n",
    "deep_if_nesting": "".join("    " * i + "if True:\n" for i in range(90)) + "    " * 90 + "print('deep')\n",
    "deep_def_nesting": "".join("    " * i + f"def f{i}():\n" for i in range(60)) + "    " * 60 + "return 1\nprint(f0)\n",
    "deep_try_nesting": "".join("    " * i + "try:\n" for i in range(40)) + "    " * 40 + "raise ValueError\n" + "".join("    " * i + "except KeyError:\n" + "    " * i + "    pass\n" for i in reversed(range(40))),
    "deep_for_nesting": "".join("    " * i + f"for i{i} in range(2):\n" for i in range(20)) + "    " * 20 + "pass\n",
    "deep_comprehension": "print(" + "[" * 50 + "1" + " for _ in range(1)]" * 50 + ")\n",
    "chained_compare_long": "print(" + " < ".join(str(i) for i in range(3000)) + ")\n",
    "long_string_concat": "s = ''\nfor i in range(3000):\n    s += str(i)\nprint(len(s))\n",
    "bool_int_ops": attempt(["True / False", "True // False", "True % False", "True ** -1", "~True", "-True", "True & 3",
                             "True | False", "True ^ True", "True << 3", "[1, 2][True]", "'ab' * True", "True + 1.5", "divmod(True, True)"]),
    "weird_calls": attempt(["(1)()", "'s'()", "[]()", "None()", "print.__call__(1)", "len(*[[1]], **{})", "(lambda: 1)(1)",
                            "(lambda *, a: a)(1)", "(lambda **k: k)(**{'a': 1}, b=2)", "(lambda a: a)(a=1, **{'a': 2})",
                            "dict(**{1: 2})", "sorted([], **{'key': len, 'reverse': 1})", "int(x='1')", "max(*[], default=0)",
                            "type(5)(3.7)", "type('s')(1)", "type([])('ab')", "type(None)()", "type(len)(1)", "type(lambda: 0)()",
                            "range(*[1, 10, 3])", "isinstance(1, *[int])", "str(1, 2, 3)"]),
    "unicode_mix": "s = 'héllo wörld ✓ 😀'\nprint(len(s), s[1], s[-1], s[::-1], s.upper(), s.split('ö'), s.find('✓'), s.encode if False else 0)\nprint(ord(s[-1]), [c for c in s][:3], s.center(30, '·'), repr(s), '%s|%5s' % (s[:2], s[1]))\nprint(f'{s:>25}', s.replace('ö', 'oe'), s.count('l'), s.startswith('hé'), sorted(set(s))[:4])\n",
    "invalid_utf8_str": b"s = '\xff\xfe'\nprint(len(s), s)\n",
    "invalid_utf8_runtime": "s = chr(0xD800) + chr(0xDFFF)\nprint(len(s), repr(s), s.upper())\n",
    "nul_in_str": "s = 'a\\x00b'\nprint(len(s), repr(s), s.split('\\x00'))\n",
    "escape_in_repr": "print(repr('\\x01\\x7f\\t\\n\\\\\\'\"é\\u2028'), repr(chr(0)), ascii('é') if False else 0)\n",
    "globals_mutation": "import sys\nfor k in list(dir()):\n    pass\nprint(__name__)\n__name__ = 5\nprint(__name__)\n",
    "type_confusion_method_call": attempt(["list.append(1, 2)", "list.append([], 1)", "str.upper(5)", "dict.get([], 1)",
                                          "set.add({1}, [1])", "str.join(',', 5)", "int.bit_length(5)", "float.is_integer(2)",
                                          "list.sort(5)", "dict.items(5)", "str.format(5)", "list.__len__ if False else 0",
                                          "[].append.__self__ if False else 0", "(1).bit_length()", "(2.5).is_integer()",
                                          "(5).conjugate()", "(-1).bit_length()", "(2**63 - 1).bit_length()"]),
    "obj_builtins": attempt(["object.__setattr__(1, 'a', 2)", "object.__setattr__(5)", "object.__setattr__(object(), 'x', 1)",
                             "object().x", "object.__init__ if False else 0", "staticmethod(1)", "classmethod(1)", "property(5).fget",
                             "property()", "isinstance(property(), property)"]),
}


def type_samples():
    return {
        "int": "7", "neg": "-3", "zero": "0", "bool": "True", "float": "2.5", "nan": "float('nan')", "inf": "float('inf')",
        "str": "'ab'", "estr": "''", "list": "[1, 2]", "tuple": "(1, 2)", "dict": "{1: 2}", "set": "{1, 2}", "none": "None",
        "range": "range(3)", "slice": "slice(1, 2)", "func": "len", "lambda": "(lambda: 0)", "cls": "int", "inst": "Box()",
        "exc": "ValueError('e')", "tensor": "torch.tensor([1.0, 2.0])", "itensor": "torch.tensor([3, 4])",
        "btensor": "torch.tensor([True, False])", "scalar": "torch.tensor(5)", "dtype": "torch.float32", "size": "torch.Size([2])",
        "module": "math", "big": "2**62",
    }


OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "<", "<=", "==", "!=", ">", ">=", "in", "is"]
AUG = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=", ">>="]
PRELUDE = """\
import torch
import math
class Box:
    def __init__(self, v=1):
        self.v = v
    def __add__(self, o):
        return Box(self.v)
    def __radd__(self, o):
        return Box(self.v)
    def __lt__(self, o):
        return NotImplemented
samples = {
"""


def operator_mix_files():
    samples = type_samples()
    files = {}
    body = PRELUDE + "".join(f"    {k!r}: lambda: {v},\n" for k, v in samples.items()) + "}\n"
    for left in samples:
        ops = "".join(f"    ('{op}', lambda a, b: a {op} b),\n" for op in OPERATORS)
        files[f"ops_{left}"] = body + f"""\
ops = [
{ops}]
for rname, rmake in samples.items():
    for op, f in ops:
        try:
            r = f(samples[{left!r}](), rmake())
            print({left!r}, op, rname, repr(r)[:60])
        except Exception as e:
            print({left!r}, op, rname, type(e).__name__)
for u in [lambda a: -a, lambda a: +a, lambda a: ~a, lambda a: not a, lambda a: abs(a), lambda a: hash(a), lambda a: len(a),
          lambda a: bool(a), lambda a: str(a)[:40], lambda a: list(a)[:5], lambda a: a[0], lambda a: a[1:], lambda a: a(),
          lambda a: int(a), lambda a: float(a), lambda a: round(a), lambda a: sorted(a)]:
    try:
        print(repr(u(samples[{left!r}]()))[:60])
    except Exception as e:
        print(type(e).__name__)
"""
    # Augmented assignment mixes: one file per operator, over a subset of pairs.
    subset = ["int", "bool", "float", "str", "list", "tuple", "dict", "set", "none", "tensor", "itensor", "scalar", "inst", "big"]
    for i, op in enumerate(AUG):
        files[f"augops_{i}"] = body + f"""\
for lname in {subset!r}:
    for rname in {subset!r}:
        try:
            x = samples[lname]()
            y = samples[rname]()
            x {op} y
            print(lname, '{op}', rname, repr(x)[:50])
        except Exception as e:
            print(lname, '{op}', rname, type(e).__name__)
"""
    return files


def builtin_method_files():
    files = {}
    for name, calls in BUILTIN_CALLS.items():
        files[f"builtin_{name}"] = attempt(calls)
    for i in range(0, len(STR_METHODS), 20):
        files[f"str_methods_{i // 20}"] = attempt(STR_METHODS[i:i + 20])
    files["list_methods"] = attempt(LIST_METHODS)
    files["list_stmts"] = LIST_STMTS
    files["dict_methods"] = attempt(DICT_METHODS)
    files["set_methods"] = attempt(SET_METHODS)
    return files


def valid_scripts():
    files = builtin_method_files()
    for group, prefix in [(CLASSES, "class"), (EXCEPTIONS, "exc"), (TORCH, "torch"), (STDLIB, "stdlib"), (LANGUAGE, "lang")]:
        for name, src in group.items():
            if prefix == "torch" and not src.startswith("import torch"):
                src = "import torch\n" + src
            files[f"{prefix}_{name}"] = src
    files.update(operator_mix_files())
    return files


def oracle_scripts():
    files = {}
    for name in sorted(os.listdir(ORACLE)):
        if name.endswith(".py"):
            with open(os.path.join(ORACLE, name), encoding="utf-8") as f:
                files["oracle_" + name[:-3]] = f.read()
    return files


def write(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    rng = random.Random(4321)
    valid = valid_scripts()
    for name, src in valid.items():
        write(f"{name}.py", src)
    for name, src in NASTY.items():
        write(f"nasty_{name}.py", src)
    oracle = oracle_scripts()
    for name, src in oracle.items():
        write(f"{name}.py", src)
    # Truncations cut mid-token, mid-string and mid-block (of a sample: every
    # input costs an interpreter start-up in the replay).
    sources = sorted(list(valid.items()) + list(oracle.items()))
    for name, src in rng.sample(sources, 110):
        data = src.encode("utf-8")
        write(f"trunc_{name}.py", data[: rng.randrange(1, len(data))])
    # Mutants: a few bytes flipped, inserted or dropped in valid scripts.
    for i in range(25):
        name, src = sources[rng.randrange(len(sources))]
        data = bytearray(src.encode("utf-8"))
        for _ in range(rng.randrange(1, 6)):
            pos = rng.randrange(len(data))
            choice = rng.randrange(3)
            if choice == 0:
                data[pos] = rng.randrange(256)
            elif choice == 1:
                data.insert(pos, rng.choice(b"()[]{}:,.*+-=\n '\"\\#0123456789"))
            else:
                del data[pos]
        write(f"mutant_{i}.py", bytes(data))
    # Splices: the head of one script on the tail of another.
    for i in range(10):
        a = sources[rng.randrange(len(sources))][1].encode("utf-8")
        b = sources[rng.randrange(len(sources))][1].encode("utf-8")
        write(f"splice_{i}.py", a[: rng.randrange(len(a))] + b[rng.randrange(len(b)):])
    for i in range(10):
        write(f"garbage_{i}.bin", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
    write("garbage_nul.bin", b"\x00" * 100)
    write("garbage_ff.bin", b"\xff" * 100)
    write("empty.py", b"")
    print(f"wrote {len(os.listdir(OUT))} files to {OUT}")


if __name__ == "__main__":
    main()
