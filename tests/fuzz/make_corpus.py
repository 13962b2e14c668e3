#!/usr/bin/env python3
"""Writes the front end's fuzz seed corpus into corpus/frontend/.

Valid scripts covering every construct of the Kiln subset, truncations of
them, rejected constructs, broken syntax, binary garbage, deep nesting and
huge literals. Deterministic: rerunning rewrites the same files.
"""
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "frontend")

VALID = {
    "basics": '''\
"""Module docstring."""
import math
import torch.nn as nn
from torch import optim as o, tensor
from os.path import (join, exists,)
x = 1
y = 2.5
z = x + y * 3 - 4 / 2 // 1 % 7 ** 2
a, b = b, a
a, *rest = [1, 2, 3]
[p, q] = (1, 2)
x += 1; y -= 2; z *= 3
x /= 2
x //= 2
x %= 3
x **= 2
x @= y
x &= 1
x |= 2
x ^= 3
x <<= 1
x >>= 1
n: int = 3
m: float
s = 'single' "double" \'\'\'triple\'\'\' """triple2"""
r = r'raw\\n' + 'esc\\n\\t\\x41\\u00e9\\0'
h = 0x_FF + 0o17 + 0b1010 + 1_000_000
f = 1. + .5 + 1e-3 + 1_000.5 + 2E+10
t = ()
t1 = (1,)
l = [1, 2, 3,]
d = {'a': 1, 'b': 2, **other}
st = {1, 2, 3}
e = ...
none = None
flag = True and not False or x
''',
    "control": '''\
if x > 0:
    print("pos")
elif x < 0:
    print("neg")
elif x == 0:
    pass
else:
    print("zero")
while i < 10:
    i += 1
    if i == 3:
        continue
    if i == 8:
        break
else:
    print("done")
for i in range(10):
    pass
else:
    pass
for i, (a, b) in enumerate(zip(xs, ys)):
    print(i, a, b)
for k, v in d.items(): print(k, v)
if x: pass
while False: break
''',
    "functions": '''\
def f(a, b=1, *args, c, d=2, **kwargs):
    """Docstring."""
    return a, b

def g(x: int, y: "Tensor" = None) -> float:
    global counter
    counter += 1
    return x

def h(*, key):
    return key

def outer():
    v = 0
    def inner():
        nonlocal v
        v += 1
        return v
    return inner

lam = lambda: 0
lam2 = lambda x, y=2, *a, k=1, **kw: x + y
lam3 = lambda *args: args
@staticmethod
@decorator(arg=1)
def decorated(self):
    return None

f(1, 2, *xs, c=3, **kw)
f(*a, *b, **c, **d)
print(sum(x * x for x in range(10)))
''',
    "classes": '''\
class Base:
    pass

class Model(nn.Module):
    """A model."""
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    @property
    def size(self):
        return self.lin.weight.shape

    @staticmethod
    def make():
        return Model(4)

    def __call__(self, x):
        return self.lin(x).relu()

class Empty(object): ...
''',
    "exprs": '''\
v = -2 ** 2
w = 2 ** -1
u = ~x + -y - +z
c = a < b <= c != d == e > f >= g
c2 = a in b and a not in c or a is None or a is not b
c3 = not a == b
big = a | b ^ c & d << 2 >> 1
cond = a if b else c if d else e
mm = a @ b @ c
chain = obj.attr.method(1)[2](3).x
sub = a[1], a[1:2], a[::2], a[1, :], a[..., None], a[:, None], a[1:2:3], a[:], a[::], a[-1]
sub2 = a[i][j][k]
lc = [x * 2 for x in range(10) if x % 2 if x > 3]
lc2 = [(x, y) for x in a for y in b]
dc = {k: v for k, v in d.items()}
sc = {x for x in s}
ge = (x for x in y)
nested = [[j for j in range(i)] for i in range(3)]
call = f(a)(b)(c)
tup = 1, 2, 3
star = [*a, *b]
dd = {**a, 'x': 1, **b}
paren = (a + b) * (c - d)
s = "abc"[1:]
''',
    "fstrings": '''\
name = "kiln"
width = 10
print(f"hello {name}!")
print(f'{name!r:>{width}} and {{braces}}')
print(f"{x + 1:.3f} {y!s} {z!a}")
print(f"{'nested'} {d['key']}")
print(f"{a:{b}.{c}}")
print("plain" f"{x}" 'more')
print(f"""multi
line {x}
""")
print(rf"raw {x}\\n")
print(f"{x=}")
print(f"{x = :>5}")
print(f"{x, y}")
''',
    "exceptions": '''\
try:
    risky()
except ValueError as e:
    print(e)
except (TypeError, KeyError) as e:
    raise RuntimeError("bad") from e
except Exception:
    raise
except:
    pass
else:
    print("ok")
finally:
    cleanup()

try:
    pass
finally:
    pass

assert x, "message"
assert y
raise ValueError
del a, b[0], c.d
del (e, f)
with torch.no_grad():
    pass
with open(p) as fh, lock:
    pass
with a as (b, c):
    pass
''',
    "model": '''\
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))

model = MLP(4, 16, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
X = torch.randn(64, 4)
y = (X[:, 0] > 0).long()
for step in range(100):
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")
''',
    "continuation": '''\
total = 1 + \\
        2 + \\
        3
items = [
    1,
    2,  # comment
    3,
]
call(a,
     b,
     c=3)
# trailing comment
if (a and
        b):
    pass
x = {
    'k': [1, (2,
              3)],
}
''',
    "tabs": "if x:\n\tif y:\n\t\tpass\n\telse:\n\t\tz = 1\n",
    "crlf": "x = 1\r\nif x:\r\n    y = 2\r\n",
    "noeol": "x = 1\nprint(x)",
    "semicolons": "a = 1; b = 2; c = 3;\n",
    "unicode": "s = 'h\u00e9llo w\u00f6rld \u2603'\nprint(s)\n",
    "bom": "\ufeffx = 1\n",
}

INVALID = {
    "yield": "def f():\n    yield 1\n",
    "async": "async def f():\n    pass\n",
    "await": "def f():\n    await g()\n",
    "match": "match x:\n    case 1:\n        pass\n",
    "walrus": "if (n := len(a)) > 10:\n    pass\n",
    "posonly": "def f(a, /, b):\n    pass\n",
    "multi_inherit": "class A(B, C):\n    pass\n",
    "metaclass": "class A(metaclass=M):\n    pass\n",
    "complex": "x = 1j\n",
    "bytes": "x = b'abc'\n",
    "bigint": "x = 123456789012345678901234567890\n",
    "bighex": "x = 0xFFFFFFFFFFFFFFFFFFFF\n",
    "print2": "print 'hello'\n",
    "exec2": "exec 'code'\n",
    "unterminated": "x = 'abc\n",
    "unterminated_triple": 'x = """abc\n\n',
    "never_closed": "x = (1, 2\n",
    "unmatched": "x = 1)\n",
    "mismatch": "x = [1, 2)\n",
    "bad_indent": "if x:\n    a\n  b\n",
    "unexpected_indent": "x = 1\n    y = 2\n",
    "no_block": "if x:\npass\n",
    "missing_colon": "if x\n    pass\n",
    "assign_literal": "1 = x\n",
    "assign_call": "f() = 1\n",
    "tab_error": "if x:\n\ty\n        z\n",
    "leading_zero": "x = 0123\n",
    "bad_escape": "x = '\\xZZ'\n",
    "fstring_empty": "f'{}'\n",
    "fstring_single_brace": "f'}'\n",
    "fstring_unclosed": "f'{x'\n",
    "fstring_conv": "f'{x!z}'\n",
    "fstring_deep": "f'{x:{y:{z}}}'\n",
    "fstring_backslash": "f'{\"\\n\"}'\n",
    "dollar": "x = $\n",
    "nul": "x = 1\x00\n",
    "default_order": "def f(a=1, b):\n    pass\n",
    "dup_arg": "def f(a, a):\n    pass\n",
    "genexp_paren": "f(x for x in y, 1)\n",
    "kwarg_order": "f(a=1, b)\n",
    "star_target": "*a = b\n",
    "two_stars": "a, *b, *c = d\n",
    "relative_import": "from . import x\n",
    "except_star": "try:\n    pass\nexcept* E:\n    pass\n",
    "no_except": "try:\n    pass\nx = 1\n",
    "backslash_eof": "x = \\",
    "backslash_garbage": "x = \\ 1\n",
    "lone_bang": "a ! b\n",
    "keyword_name": "class = 1\n",
    "ctrl_char": "x = \x01\n",
}


def write(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    rng = random.Random(1234)
    for name, src in VALID.items():
        write(f"valid_{name}.py", src)
    for name, src in INVALID.items():
        write(f"invalid_{name}.py", src)
    # Truncations of the valid scripts at many points.
    for name, src in VALID.items():
        data = src.encode("utf-8")
        cuts = sorted(set(rng.randrange(1, len(data)) for _ in range(8)))
        for c in cuts:
            write(f"trunc_{name}_{c}.py", data[:c])
    # Random byte flips and splices of valid scripts.
    sources = [s.encode("utf-8") for s in VALID.values()]
    for i in range(20):
        data = bytearray(rng.choice(sources))
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        write(f"mutant_{i}.py", bytes(data))
    for i in range(10):
        a, b = rng.choice(sources), rng.choice(sources)
        write(f"splice_{i}.py", a[: rng.randrange(len(a))] + b[rng.randrange(len(b)) :])
    # Binary garbage, NUL bytes and invalid UTF-8.
    for i in range(12):
        write(f"garbage_{i}.bin", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))))
    write("nul_only.bin", b"\x00" * 64)
    write("nul_in_string.py", b"x = 'a\x00b'\n")
    write("invalid_utf8_start.py", b"x = '\xff'\n")
    write("invalid_utf8_cont.py", b"x = '\xc3\x28'\n")
    write("invalid_utf8_trunc.py", b"x = '\xe2\x82'")
    write("invalid_utf8_surrogate.py", b"x = '\xed\xa0\x80'\n")
    write("invalid_utf8_overlong.py", b"x = '\xc0\xaf'\n")
    write("empty.py", b"")
    write("only_newlines.py", b"\n\n\n")
    write("only_comment.py", b"# nothing here")
    write("only_spaces.py", b"    ")
    # Deep nesting: 10000 levels of each bracket, of unary ops, of blocks.
    n = 10000
    write("deep_parens.py", "x = " + "(" * n + "1" + ")" * n + "\n")
    write("deep_brackets.py", "x = " + "[" * n + "1" + "]" * n + "\n")
    write("deep_braces.py", "x = " + "{" * n + "1" + "}" * n + "\n")
    write("deep_open_only.py", "(" * n)
    write("deep_unary.py", "x = " + "-" * n + "1\n")
    write("deep_not.py", "x = " + "not " * n + "1\n")
    write("deep_power.py", "x = " + "2 ** " * n + "2\n")
    write("deep_binop.py", "x = " + "1 + " * 50000 + "1\n")
    write("deep_attr.py", "x = a" + ".b" * 20000 + "\n")
    write("deep_calls.py", "x = f" + "()" * 20000 + "\n")
    write("deep_subscripts.py", "x = a" + "[0]" * 20000 + "\n")
    write("deep_lambda.py", "x = " + "lambda: " * 5000 + "1\n")
    write("deep_ifexp.py", "x = " + "1 if c else " * 5000 + "2\n")
    write("deep_if_blocks.py", "".join(" " * i + "if x:\n" for i in range(1000)) + " " * 1000 + "pass\n")
    write("deep_tab_blocks.py", "".join("\t" * i + "if x:\n" for i in range(300)) + "\t" * 300 + "pass\n")
    write("deep_elif.py", "if x:\n    pass\n" + "elif x:\n    pass\n" * 5000)
    write("deep_fstring.py", "x = f'{" * 50 + "1" + "}'" * 50 + "\n")
    write("deep_mixed.py", "x = " + "([{" * 3000 + "1" + "}])" * 3000 + "\n")
    # Huge inputs.
    write("huge_string.py", "x = '" + "a" * 1_000_000 + "'\n")
    write("huge_int_literal.py", "x = " + "9" * 100_000 + "\n")
    write("huge_float_literal.py", "x = " + "1" * 5000 + ".5e99999\n")
    write("huge_list.py", "x = [" + "1, " * 50_000 + "]\n")
    write("huge_lines.py", "x = 1\n" * 50_000)
    write("huge_concat.py", "x = " + "'a' " * 50_000 + "\n")
    write("huge_fstrings.py", "x = " + "f'{y}' " * 25_000 + "\n")
    write("huge_args.py", "f(" + ", ".join(f"a{i}" for i in range(20_000)) + ")\n")
    write("huge_params.py", "def f(" + ", ".join(f"a{i}" for i in range(20_000)) + "):\n    pass\n")
    write("int_max.py", "x = 9223372036854775807\ny = 0x7fffffffffffffff\n")
    write("int_over.py", "x = 9223372036854775808\n")
    write("unterminated_huge.py", "x = '" + "b" * 100_000)
    write("unterminated_triple_huge.py", 'x = """' + "line\n" * 20_000)
    write("mixed_tabs_spaces.py", "if x:\n    \ty = 1\n\t    z = 2\n")
    write("formfeed.py", "\fx = 1\nif x:\n    \fy = 2\n")
    write("cr_only.py", b"x = 1\rif x:\r    y = 2\r")
    write("lone_cr_string.py", b"x = '''a\rb'''\n")
    # Random token soup from Python's vocabulary.
    vocab = ["if", "else", "elif", "for", "in", "while", "def", "class", "return", "lambda", "(", ")", "[", "]",
             "{", "}", ":", ",", ".", "=", "+", "-", "*", "**", "/", "//", "x", "y", "1", "2.5", "'s'", "f'{x}'",
             "\n", "\n    ", "\n\t", "not", "and", "or", "is", "@", "->", ":=", "...", "yield", "async", "try",
             "except", "finally", "with", "as", "import", "from", "global", "del", "pass", "\\\n", "#c\n"]
    for i in range(60):
        toks = [rng.choice(vocab) for _ in range(rng.randrange(1, 60))]
        write(f"soup_{i}.py", " ".join(toks))


if __name__ == "__main__":
    main()
