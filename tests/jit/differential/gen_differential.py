#!/usr/bin/env python3
"""Randomized differential test: compiled graphs against the eager kernels.

usage: gen_differential.py KILN [--shard K/N] [--only I,J,...] [--work-dir DIR] [--write-only]

Generates random case functions from the ops Kiln supports (pointwise with
broadcasting and scalars, reductions, matmul/linear, views, in-place updates
of fresh tensors; float32 mostly, some float64/int64/bool; inputs transposed,
permuted, sliced with a step, narrowed or expanded), writes them into ONE Kiln
script and runs it once with `KILN explain --json`. The script calls each case
through torch.compile twice and through torch.compiler.disable once (the
eager kernels), and for some float cases also compares the inputs' gradients
after backward() of the outputs' sum. It prints `case I ok` or
`case I MISMATCH ...` / `case I ERROR ...` per case. This checker fails when
the script fails, when a case mismatches or errors, when a case never printed
`ok`, when a case's torch.compile region captured no graph, or when a
backward pass ran in the interpreter (a "compiled" result that really came
from the interpreter would compare eager with eager). `kiln explain --json`
rather than `kiln run` because its report shows which regions ran graphs.

Environment: KILN_DIFF_SEED (default below) and KILN_DIFF_CASES (default 1000)
pick the cases; case I depends only on the seed and I, so any case can be
regenerated alone.

Reproducing one failing case (the failure report prints this command too):
    KILN_DIFF_SEED=S python3 tests/jit/differential/gen_differential.py \\
        build/release/jit/kiln --only 17 --work-dir /tmp/kd
then read or edit /tmp/kd/differential_only.py (a plain Kiln script that also
runs under CPython + PyTorch 2.x) and rerun it with
    KILN_HOT_CALLS=1000000000 KILN_HOT_LOOPS=1000000000 build/release/jit/kiln run /tmp/kd/differential_only.py

Standard library only.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys

DEFAULT_SEED = 6061
DEFAULT_CASES = 1000
RTOL, ATOL = 1e-4, 1e-5

F32, F64, I64, BOOL = "float32", "float64", "int64", "bool"
FLOATS = (F32, F64)
CATEGORY = {BOOL: 0, I64: 1, F32: 2, F64: 2}
RANK = {BOOL: 0, I64: 1, F32: 2, F64: 3}
TORCH_DTYPE = {F32: "torch.float32", F64: "torch.float64", I64: "torch.int64", BOOL: "torch.bool"}

# Bounds on |value| the generator keeps, so that a correct backend with a
# different rounding (vectorized polynomials, reassociated sums, FMA) stays
# inside the tolerance: no exp of large values, no huge products whose
# cancellation would leave only rounding noise.
HI_CAP = 1000.0
EXP_CAP = 6.0
MAX_NUMEL = 40000


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def broadcast(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[len(a) - 1 - i] if i < len(a) else 1
        y = b[len(b) - 1 - i] if i < len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out.append(max(x, y) if min(x, y) != 0 else 0)
    return tuple(reversed(out))


def promote(operands):
    """PyTorch's result type for (dtype, ndim) tensor operands: zero-dim
    tensors only count when their category is higher."""
    dimmed = [d for d, n in operands if n > 0]
    zero = [d for d, n in operands if n == 0]
    top = lambda ds: max(ds, key=lambda d: RANK[d])
    if not dimmed:
        return top(zero)
    t = top(dimmed)
    if zero and CATEGORY[top(zero)] > CATEGORY[t]:
        return top(zero)
    return t


def dims_text(shape):
    return ", ".join(str(s) for s in shape)


def shape_arg(shape):
    return "[" + dims_text(shape) + "]"


class Val:
    """A tensor value of the case function, with what the generator knows
    about it: `hi` bounds |value|, `lo` (when set) bounds it from below by a
    positive number, `exact` means no op on its way rounded (so comparisons
    and float->int conversions cannot flip under another backend), `const` holds the negative
    dims along which it may be constant (layer_norm over them would divide
    rounding noise by sqrt(eps))."""

    def __init__(self, name, shape, dtype, hi, lo=None, exact=False, const=frozenset(), is_input=False):
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype
        self.hi = hi
        self.lo = lo
        self.exact = exact
        self.const = frozenset(const)
        self.is_input = is_input
        self.uses = 0
        self.alias = False  # a view of an input: no kernel runs for it

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def is_float(self):
        return self.dtype in FLOATS


def rand_dim(rng):
    r = rng.random()
    if r < 0.15:
        return 1
    if r < 0.6:
        return rng.randint(2, 8)
    return rng.randint(9, 33)


LARGE_SHAPES = [(1000,), (1024,), (8, 125), (31, 33), (33, 31), (4, 16, 17), (2, 3, 13, 13), (1, 1000), (25, 40),
                (1000, 1), (3, 333)]


def base_shape(rng):
    if rng.random() < 0.1:
        return rng.choice(LARGE_SHAPES)
    ndim = rng.choices([0, 1, 2, 3, 4], weights=[3, 17, 40, 28, 12])[0]
    shape = [rand_dim(rng) for _ in range(ndim)]
    while numel(shape) > 4096:
        j = max(range(ndim), key=lambda k: shape[k])
        shape[j] = max(1, shape[j] // 2)
    return tuple(shape)


def partner_shape(rng, shape, into=False):
    """A shape that broadcasts with `shape`; with `into`, one that broadcasts
    *to* it (an in-place operand)."""
    drop = 0
    if shape and rng.random() < 0.3:
        drop = rng.randint(1, len(shape))
    out = []
    for s in shape[drop:]:
        r = rng.random()
        if s == 1 and not into and r < 0.3:
            out.append(rng.randint(2, 6))
        elif s != 1 and r < 0.2:
            out.append(1)
        else:
            out.append(s)
    if not into and drop == 0 and rng.random() < 0.05 and len(out) < 4:
        out.insert(0, rng.randint(2, 3))
    return tuple(out)


def slice_text(ndim, d, piece):
    """Subscript text selecting `piece` on dim d (negative or positive) of an ndim tensor."""
    d = d % ndim
    if d == ndim - 1 and ndim > 1:
        return "[..., " + piece + "]"
    return "[" + ", ".join([":"] * d + [piece]) + "]"


def layout_for(rng, shape):
    """How a (non-contiguous) input of `shape` is made from a base tensor:
    (base shape, postfix text applied to the base, dims constant by expansion)."""
    n = len(shape)
    options = ["C"] * 10
    if n >= 2:
        options += ["T"] * 3
    if n >= 3:
        options += ["P"] * 2
    if n >= 1:
        options += ["S"] * 2 + ["O"]
    if any(s > 1 for s in shape):
        options += ["E"] * 2
    kind = rng.choice(options)
    if kind == "T":
        d0, d1 = rng.sample(range(n), 2)
        base = list(shape)
        base[d0], base[d1] = base[d1], base[d0]
        if n == 2 and rng.random() < 0.5:
            return tuple(base), ".t()", frozenset()
        return tuple(base), f".transpose({d0}, {d1})", frozenset()
    if kind == "P":
        perm = list(range(n))
        while perm == sorted(perm):
            rng.shuffle(perm)
        base = [0] * n
        for j, p in enumerate(perm):
            base[p] = shape[j]
        return tuple(base), ".permute(" + ", ".join(map(str, perm)) + ")", frozenset()
    if kind == "S":
        d = rng.randrange(n)
        step = rng.choice([2, 2, 3])
        start = rng.randrange(step)
        base = list(shape)
        base[d] = shape[d] * step
        return tuple(base), slice_text(n, d, f"{start}::{step}"), frozenset()
    if kind == "O":
        d = rng.randrange(n)
        extra = rng.randint(1, 4)
        off = rng.randint(0, extra)
        base = list(shape)
        base[d] = shape[d] + extra
        return tuple(base), f".narrow({d}, {off}, {shape[d]})", frozenset()
    if kind == "E":
        big = [j for j in range(n) if shape[j] > 1]
        chosen = rng.sample(big, rng.randint(1, len(big)))
        base = [1 if j in chosen else shape[j] for j in range(n)]
        return tuple(base), ".expand(" + dims_text(shape) + ")", frozenset(j - n for j in chosen)
    return tuple(shape), "", frozenset()


class Case:
    def __init__(self, index, seed):
        self.index = index
        self.rng = random.Random(f"kiln-differential:{seed}:{index}")
        rng = self.rng
        self.torch_seed = rng.randrange(1 << 30)
        self.mode = rng.choices(["f32", "f64", "mixed", "int"], weights=[75, 9, 8, 8])[0]
        self.base = base_shape(rng)
        self.params = []       # parameter names of the case function
        self.args = []         # their values' text in make_I
        self.make = []         # lines of make_I
        self.leaves = []       # base tensors that get requires_grad
        self.body = []
        self.pool = []
        self.count = 0
        self.scalar = None
        self.grad = False

    # ---- inputs ---------------------------------------------------------

    def input_dtype(self):
        if self.mode == "f64":
            return F64
        if self.mode == "mixed":
            return self.rng.choice([F32, F64])
        if self.mode == "int":
            return self.rng.choice([I64, I64, F32])
        return F32

    def new_input(self, shape, dtype, positive=False):
        rng = self.rng
        k = len(self.params)
        base, post, const = layout_for(rng, shape)
        dims = shape_arg(base)
        if dtype in FLOATS:
            dt = "" if dtype == F32 else ", dtype=torch.float64"
            if positive:
                expr = f"(torch.rand({dims}{dt}) + 0.1).requires_grad_(rg)"
                hi, lo = 1.1, 0.1
            else:
                expr = f"torch.randn({dims}{dt}).requires_grad_(rg)"
                hi, lo = 4.5, None
            self.leaves.append(f"b{k}")
        elif dtype == I64:
            expr = f"torch.randint(-5, 6, {dims})"
            hi, lo = 5.0, None
        else:
            expr = f"torch.rand({dims}) > 0.5"
            hi, lo = 1.0, None
        self.make.append(f"    b{k} = {expr}")
        self.params.append(f"x{k}")
        self.args.append(f"b{k}{post}")
        v = Val(f"x{k}", shape, dtype, hi, lo, exact=True, const=const, is_input=True)
        self.pool.append(v)
        return v

    def scalar_param(self):
        if self.scalar is None:
            self.scalar = self.rng.choice([0.5, -1.25, 2.0, 0.3, -0.7])
            self.params.append("s0")
            self.args.append(repr(self.scalar))
        return "s0", abs(self.scalar)

    # ---- helpers --------------------------------------------------------

    def emit(self, expr, shape, dtype, hi, lo=None, exact=False, const=frozenset()):
        name = f"t{self.count}"
        self.count += 1
        self.body.append(f"    {name} = {expr}")
        v = Val(name, shape, dtype, hi, lo, exact, const)
        self.pool.append(v)
        return v

    def pick(self, pred):
        cands = [v for v in self.pool if pred(v)]
        if not cands:
            return None
        # Recent and not yet used values first: chains, few dead ops.
        weights = [(j + 1) ** 2 * (1 if v.uses else 4) for j, v in enumerate(cands)]
        v = self.rng.choices(cands, weights=weights)[0]
        v.uses += 1
        return v

    def partner(self, a, pred, dtype=None, into=False):
        """An operand broadcasting with a (or into a): from the pool or new."""
        rng = self.rng

        def fits(v):
            if not pred(v):
                return False
            if into:
                return broadcast(a.shape, v.shape) == a.shape
            r = broadcast(a.shape, v.shape)
            return r is not None and numel(r) <= MAX_NUMEL
        if rng.random() < 0.5:
            v = self.pick(fits)
            if v is not None:
                return v
        shape = partner_shape(rng, a.shape, into)
        if numel(broadcast(a.shape, shape) or ()) > MAX_NUMEL:
            shape = a.shape
        return self.new_input(shape, dtype or self.input_dtype())

    @staticmethod
    def const_union(a, b, shape):
        """Dims (negative) along which a pointwise result of a and b may be constant."""
        out = set()
        for d in range(-len(shape), 0):
            def c(v):
                return -d > v.ndim or v.shape[d] == 1 or d in v.const
            if c(a) and c(b):
                out.add(d)
        return frozenset(out)

    def float_val(self, cap=HI_CAP):
        return self.pick(lambda v: v.is_float and v.hi <= cap)

    def dim(self, v):
        d = self.rng.randrange(v.ndim)
        return d - v.ndim if self.rng.random() < 0.4 else d

    # ---- ops ------------------------------------------------------------

    def op_unary(self):
        a = self.float_val()
        if a is None:
            return False
        rng = self.rng
        n, h = a.name, a.hi
        pos = a.lo is not None and a.lo >= 0.01
        choices = ["neg", "abs", "relu", "gelu", "silu", "tanh", "sigmoid", "erf", "log", "sqrt", "rsqrt",
                   "pow", "clamp", "clone", "scalar", "convert"]
        if h <= EXP_CAP:
            choices.append("exp")
        if h <= 50:
            choices += ["sin", "cos"]
        op = rng.choice(choices)
        if op == "neg":
            return self.emit(rng.choice([f"-{n}", f"torch.neg({n})", f"{n}.neg()"]), a.shape, a.dtype, h,
                             exact=a.exact, const=a.const)
        if op == "abs":
            return self.emit(rng.choice([f"{n}.abs()", f"torch.abs({n})"]), a.shape, a.dtype, h, exact=a.exact,
                             const=a.const)
        if op == "relu":
            return self.emit(rng.choice([f"torch.relu({n})", f"F.relu({n})"]), a.shape, a.dtype, h, exact=a.exact,
                             const=a.const)
        if op == "gelu":
            e = rng.choice([f"F.gelu({n})", f"F.gelu({n}, approximate='tanh')", f"F.gelu({n}, approximate='none')"])
            return self.emit(e, a.shape, a.dtype, h, const=a.const)
        if op == "silu":
            return self.emit(f"F.silu({n})", a.shape, a.dtype, h, const=a.const)
        if op == "exp":
            return self.emit(rng.choice([f"torch.exp({n})", f"{n}.exp()"]), a.shape, a.dtype, math.exp(h),
                             lo=math.exp(-h), const=a.const)
        if op in ("sin", "cos", "tanh", "erf"):
            return self.emit(rng.choice([f"torch.{op}({n})", f"{n}.{op}()"]), a.shape, a.dtype, 1.0, const=a.const)
        if op == "sigmoid":
            lo = 1.0 / (1.0 + math.exp(h)) if h <= 30 else None
            return self.emit(rng.choice([f"torch.sigmoid({n})", f"{n}.sigmoid()"]), a.shape, a.dtype, 1.0, lo=lo,
                             const=a.const)
        if op in ("log", "sqrt", "rsqrt"):
            if pos:
                arg, lo, hi = n, a.lo, h
            else:
                c = rng.choice([0.1, 0.5, 1.0])
                arg, lo, hi = f"({n}.abs() + {c})", c, h + c
            if op == "log":
                return self.emit(f"torch.log({arg})", a.shape, a.dtype, max(abs(math.log(lo)), math.log(hi)),
                                 const=a.const)
            if op == "sqrt":
                return self.emit(rng.choice([f"torch.sqrt({arg})", f"{arg}.sqrt()"]), a.shape, a.dtype,
                                 math.sqrt(hi), lo=math.sqrt(lo), const=a.const)
            return self.emit(f"torch.rsqrt({arg})", a.shape, a.dtype, 1 / math.sqrt(lo), lo=1 / math.sqrt(hi),
                             const=a.const)
        if op == "pow":
            e = rng.choice([2, 3, 2.0, 0.5, -1, 1.5, -0.5])
            if isinstance(e, int) and e > 0 and h ** e <= HI_CAP:
                return self.emit(rng.choice([f"{n} ** {e}", f"torch.pow({n}, {e})", f"{n}.pow({e})"]), a.shape,
                                 a.dtype, h ** e, const=a.const)
            if pos:
                base, lo, hi = n, a.lo, h
            else:
                c = rng.choice([0.5, 1.0])
                base, lo, hi = f"({n}.abs() + {c})", c, h + c
            e = rng.choice([0.5, 1.5, -1, -0.5, 2.0])
            bound = max(lo ** e, hi ** e)
            if bound > HI_CAP:
                return False
            return self.emit(rng.choice([f"{base} ** {e}", f"torch.pow({base}, {e})"]), a.shape, a.dtype, bound,
                             lo=min(lo ** e, hi ** e), const=a.const)
        if op == "clamp":
            form = rng.choice(["both", "min", "max", "fn"])
            if form == "both":
                e, lo = f"{n}.clamp(-1.0, 2.0)", None
            elif form == "min":
                e, lo = f"torch.clamp({n}, min=0.25)", 0.25
            elif form == "max":
                e, lo = f"{n}.clamp(max=0.3)", None
            else:
                e, lo = f"torch.clamp({n}, -0.5, 0.5)", None
            return self.emit(e, a.shape, a.dtype, max(min(h, 2.0), 0.25), lo=lo, exact=a.exact, const=a.const)
        if op == "clone":
            return self.emit(f"{n}.clone()", a.shape, a.dtype, h, lo=a.lo, exact=a.exact, const=a.const)
        if op == "scalar":
            c = rng.choice([0.5, 2.0, -1.5, 3.0, 0.1])
            form = rng.choice(["mul", "rmul", "add", "rsub", "div", "param_mul", "param_add"])
            if form == "mul":
                return self.emit(f"{n} * {c}", a.shape, a.dtype, h * abs(c), const=a.const)
            if form == "rmul":
                return self.emit(f"{c} * {n}", a.shape, a.dtype, h * abs(c), const=a.const)
            if form == "add":
                return self.emit(f"{n} + {c}", a.shape, a.dtype, h + abs(c), const=a.const)
            if form == "rsub":
                return self.emit(f"{c} - {n}", a.shape, a.dtype, h + abs(c), const=a.const)
            if form == "div":
                return self.emit(f"{n} / {c}", a.shape, a.dtype, h / abs(c), const=a.const)
            s, sv = self.scalar_param()
            if form == "param_mul":
                return self.emit(f"{n} * {s}", a.shape, a.dtype, h * sv, const=a.const)
            return self.emit(f"{n} + {s}", a.shape, a.dtype, h + sv, const=a.const)
        # convert
        if a.dtype == F32:
            e = rng.choice([f"{n}.double()", f"{n}.to(torch.float64)"])
            return self.emit(e, a.shape, F64, h, lo=a.lo, exact=a.exact, const=a.const)
        if a.exact and rng.random() < 0.5:
            return self.emit(rng.choice([f"{n}.long()", f"{n}.to(torch.int64)"]), a.shape, I64, h, exact=True,
                             const=a.const)
        return self.emit(f"{n}.float()", a.shape, F32, h, lo=a.lo, exact=False, const=a.const)

    def op_binary(self):
        rng = self.rng
        a = self.pick(lambda v: v.dtype != BOOL and v.hi <= HI_CAP)
        if a is None:
            return False
        b = self.partner(a, lambda v: v.dtype != BOOL and v.hi <= HI_CAP)
        shape = broadcast(a.shape, b.shape)
        dtype = promote([(a.dtype, a.ndim), (b.dtype, b.ndim)])
        const = self.const_union(a, b, shape)
        x, y = a.name, b.name
        ints = dtype == I64
        op = rng.choice(["add", "sub", "mul", "div", "maximum", "minimum", "add_alpha"])
        if op == "add":
            hi = a.hi + b.hi
            e = rng.choice([f"{x} + {y}", f"torch.add({x}, {y})", f"{x}.add({y})"])
        elif op == "sub":
            hi = a.hi + b.hi
            e = rng.choice([f"{x} - {y}", f"torch.sub({x}, {y})"])
        elif op == "add_alpha":
            hi = a.hi + 2 * b.hi
            alpha = rng.choice([2, -1]) if ints else rng.choice([0.5, -2.0, 1.5])
            e = f"torch.add({x}, {y}, alpha={alpha})"
        elif op == "mul":
            hi = a.hi * b.hi
            e = rng.choice([f"{x} * {y}", f"torch.mul({x}, {y})", f"{x}.mul({y})"])
        elif op == "div":
            if b.dtype in FLOATS and b.lo is not None and b.lo >= 0.05:
                hi, e = a.hi / b.lo, rng.choice([f"{x} / {y}", f"torch.div({x}, {y})"])
            else:
                c = rng.choice([0.5, 1.0])
                hi, e = a.hi / c, f"{x} / ({y}.abs() + {c})"
            if ints:
                dtype = F32
        else:
            hi = max(a.hi, b.hi)
            e = rng.choice([f"torch.{op}({x}, {y})", f"{x}.{op}({y})"])
            ex = a.exact and b.exact and (a.dtype == b.dtype or dtype == F64 or ints)
            lo = min(a.lo, b.lo) if a.lo is not None and b.lo is not None else None
            if op == "maximum" and (a.lo is not None or b.lo is not None):
                lo = max(a.lo or 0, b.lo or 0)
            return self.emit(e, shape, dtype, hi, lo=lo, exact=ex, const=const)
        if hi > HI_CAP:
            return False
        lo = None
        if op in ("add", "mul") and a.lo is not None and b.lo is not None:
            lo = a.lo + b.lo if op == "add" else a.lo * b.lo
        return self.emit(e, shape, dtype, hi, lo=lo, exact=ints and op != "div", const=const)

    def bool_val(self):
        if self.rng.random() < 0.15:
            return self.new_input(partner_shape(self.rng, self.base), BOOL)
        c = self.pick(lambda v: v.dtype == BOOL)
        if c is None or self.rng.random() < 0.3:
            c = self.op_compare()
        return c

    def op_compare(self):
        rng = self.rng
        a = self.pick(lambda v: v.exact and v.dtype != BOOL)
        if a is None:
            a = self.new_input(self.base, self.input_dtype())
        if rng.random() < 0.4:
            y = rng.choice(["0.0", "0.5", "-1", "0"])
            if a.dtype == I64:
                y = rng.choice(["0", "2", "-1"])
            shape = a.shape
            const = a.const
        else:
            b = self.partner(a, lambda v: v.exact and v.dtype != BOOL,
                             dtype=a.dtype if a.dtype in (I64, F64) else self.input_dtype())
            y = b.name
            shape = broadcast(a.shape, b.shape)
            const = self.const_union(a, b, shape)
        op, sym = rng.choice([("gt", ">"), ("lt", "<"), ("ge", ">="), ("le", "<="), ("eq", "=="), ("ne", "!=")])
        x = a.name
        e = rng.choice([f"{x} {sym} {y}", f"torch.{op}({x}, {y})" if not y[0].isdigit() and y[0] != "-" else
                        f"{x}.{op}({y})"])
        return self.emit(e, shape, BOOL, 1.0, exact=True, const=const)

    def op_bool(self):
        rng = self.rng
        c = self.bool_val()
        n = c.name
        form = rng.choice(["not", "not_m", "float", "long", "f64"])
        if form == "not":
            return self.emit(f"torch.logical_not({n})", c.shape, BOOL, 1.0, exact=True, const=c.const)
        if form == "not_m":
            return self.emit(f"{n}.logical_not()", c.shape, BOOL, 1.0, exact=True, const=c.const)
        if form == "float":
            return self.emit(rng.choice([f"{n}.float()", f"{n}.to(torch.float32)"]), c.shape, F32, 1.0, exact=True,
                             const=c.const)
        if form == "long":
            return self.emit(f"{n}.long()", c.shape, I64, 1.0, exact=True, const=c.const)
        return self.emit(f"{n}.to(torch.float64)", c.shape, F64, 1.0, exact=True, const=c.const)

    def op_where(self):
        rng = self.rng
        a = self.pick(lambda v: v.dtype != BOOL and v.hi <= HI_CAP)
        if a is None:
            return False
        c = self.bool_val()
        shape = broadcast(a.shape, c.shape)
        if shape is None or numel(shape) > MAX_NUMEL:
            return False
        form = rng.choice(["where", "where_scalar", "masked_fill"])
        if form == "masked_fill":
            if broadcast(a.shape, c.shape) != a.shape or not a.is_float:
                return False
            v = rng.choice(["0.0", "-1.5", "2.0"])
            return self.emit(f"{a.name}.masked_fill({c.name}, {v})", a.shape, a.dtype, max(a.hi, 2.0),
                             exact=a.exact, const=self.const_union(a, c, shape))
        if form == "where_scalar" and a.is_float:
            return self.emit(f"torch.where({c.name}, {a.name}, 0.0)", shape, a.dtype, a.hi, exact=a.exact,
                             const=self.const_union(a, c, shape))
        b = self.partner(a, lambda v: v.dtype != BOOL and v.hi <= HI_CAP)
        shape = broadcast(shape, b.shape)
        if shape is None or numel(shape) > MAX_NUMEL:
            return False
        dtype = promote([(a.dtype, a.ndim), (b.dtype, b.ndim)])
        ex = a.exact and b.exact and (a.dtype == b.dtype or dtype == F64)
        const = self.const_union(self.const_union_val(a, c, shape), b, shape)
        return self.emit(f"torch.where({c.name}, {a.name}, {b.name})", shape, dtype, max(a.hi, b.hi), exact=ex,
                         const=const)

    def const_union_val(self, a, b, shape):
        return Val("_", shape, F32, 0.0, const=self.const_union(a, b, shape))

    def op_int(self):
        rng = self.rng
        a = self.pick(lambda v: v.dtype == I64 and v.hi <= HI_CAP)
        if a is None:
            if self.mode != "int":
                return False
            a = self.new_input(self.base, I64)
        n = a.name
        form = rng.choice(["neg", "abs", "clamp", "mul", "add", "float", "double", "sum", "amax"])
        if form == "neg":
            return self.emit(f"-{n}", a.shape, I64, a.hi, exact=True, const=a.const)
        if form == "abs":
            return self.emit(f"{n}.abs()", a.shape, I64, a.hi, exact=True, const=a.const)
        if form == "clamp":
            return self.emit(f"{n}.clamp(-3, 3)", a.shape, I64, 3.0, exact=True, const=a.const)
        if form == "mul":
            return self.emit(f"{n} * 3", a.shape, I64, a.hi * 3, exact=True, const=a.const)
        if form == "add":
            return self.emit(f"{n} - 2", a.shape, I64, a.hi + 2, exact=True, const=a.const)
        if form == "float":
            return self.emit(f"{n}.float()", a.shape, F32, a.hi, exact=True, const=a.const)
        if form == "double":
            return self.emit(f"{n}.double()", a.shape, F64, a.hi, exact=True, const=a.const)
        if a.ndim == 0:
            return False
        d = self.dim(a)
        keep = rng.random() < 0.5
        shape = reduced(a.shape, [d], keep)
        if form == "sum":
            return self.emit(f"{n}.sum({d}, keepdim={keep})", shape, I64, a.hi * a.shape[d], exact=True,
                             const=reduced_const(a, [d], keep))
        return self.emit(f"{n}.amax({d}, keepdim={keep})", shape, I64, a.hi, exact=True,
                         const=reduced_const(a, [d], keep))

    def op_reduce(self):
        rng = self.rng
        a = self.pick(lambda v: v.is_float and v.ndim >= 1 and v.hi <= HI_CAP)
        if a is None:
            return False
        n = a.name
        d = self.dim(a)
        size = a.shape[d]
        keep = rng.random() < 0.5
        form = rng.choice(["sum", "sum", "mean", "amax", "var", "softmax", "log_softmax", "layer_norm",
                           "layer_norm", "full", "multi"])
        if form == "sum":
            if a.hi * size > HI_CAP * 10:
                return False
            e = rng.choice([f"{n}.sum({d}, keepdim={keep})", f"torch.sum({n}, dim={d}, keepdim={keep})",
                            f"{n}.sum(dim={d})" if not keep else f"{n}.sum({d}, True)"])
            return self.emit(e, reduced(a.shape, [d], keep), a.dtype, a.hi * size, const=reduced_const(a, [d], keep))
        if form == "mean":
            e = rng.choice([f"{n}.mean({d}, keepdim={keep})", f"torch.mean({n}, {d}, {keep})"])
            return self.emit(e, reduced(a.shape, [d], keep), a.dtype, a.hi, const=reduced_const(a, [d], keep))
        if form == "amax":
            e = rng.choice([f"{n}.amax({d}, keepdim={keep})", f"torch.amax({n}, dim={d}, keepdim={keep})"])
            return self.emit(e, reduced(a.shape, [d], keep), a.dtype, a.hi, exact=a.exact,
                             const=reduced_const(a, [d], keep))
        if form == "var":
            if size < 2:
                return False
            e = rng.choice([f"{n}.var({d}, keepdim={keep})", f"torch.var({n}, {d}, unbiased=False, keepdim={keep})",
                            f"torch.var({n}, dim={d}, correction=0, keepdim={keep})"])
            return self.emit(e, reduced(a.shape, [d], keep), a.dtype, a.hi * a.hi * 2,
                             const=reduced_const(a, [d], keep))
        if form == "softmax":
            e = rng.choice([f"torch.softmax({n}, {d})", f"F.softmax({n}, dim={d})", f"{n}.softmax({d})"])
            return self.emit(e, a.shape, a.dtype, 1.0, const=a.const)
        if form == "log_softmax":
            e = rng.choice([f"F.log_softmax({n}, dim={d})", f"torch.log_softmax({n}, {d})"])
            return self.emit(e, a.shape, a.dtype, 2 * a.hi + math.log(size) + 1, const=a.const)
        if form == "layer_norm":
            k = 1 if a.ndim == 1 or rng.random() < 0.7 else 2
            dims = list(range(-k, 0))
            if any(x in a.const for x in dims):
                return False
            norm = a.shape[-k:]
            w = b = None
            if rng.random() < 0.6:
                w = self.new_input(norm, a.dtype)
                if rng.random() < 0.7:
                    b = self.new_input(norm, a.dtype)
            args = f"{n}, {shape_arg(norm)}"
            if w is not None:
                args += f", {w.name}" + (f", {b.name}" if b is not None else "")
            if rng.random() < 0.3:
                args += ", eps=1e-3"
            hi = math.sqrt(numel(norm)) * (w.hi if w else 1.0) + (b.hi if b else 0.0)
            return self.emit(f"F.layer_norm({args})", a.shape, a.dtype, hi)
        if form == "full":
            if rng.random() < 0.5:
                if a.hi * numel(a.shape) > HI_CAP * 10:
                    return False
                return self.emit(rng.choice([f"{n}.sum()", f"torch.sum({n})"]), (), a.dtype, a.hi * numel(a.shape))
            return self.emit(rng.choice([f"{n}.mean()", f"torch.mean({n})"]), (), a.dtype, a.hi)
        if a.ndim < 2:
            return False
        ds = sorted(rng.sample(range(a.ndim), 2))
        cnt = a.shape[ds[0]] * a.shape[ds[1]]
        if a.hi * cnt > HI_CAP * 10:
            return False
        return self.emit(f"{n}.sum(dim=[{ds[0]}, {ds[1]}], keepdim={keep})", reduced(a.shape, ds, keep), a.dtype,
                         a.hi * cnt, const=reduced_const(a, ds, keep))

    def op_matmul(self):
        rng = self.rng
        a = self.pick(lambda v: v.is_float and v.ndim >= 1 and v.hi <= 100)
        if a is None:
            return False
        k = a.shape[-1]
        m = rand_dim(rng)
        form = rng.choice(["at", "linear", "linear", "matmul", "mm", "gram"])
        batch = a.shape[:-1]
        if numel(batch) * m > MAX_NUMEL:
            return False
        if form == "gram":
            if a.ndim < 2:
                return False
            out = a.shape[:-1] + (a.shape[-2],)
            return self.emit(f"{a.name} @ {a.name}.transpose(-1, -2)", out, a.dtype, a.hi * a.hi * k)
        if form == "linear":
            w = self.new_input((m, k), a.dtype)
            bias = self.new_input((m,), a.dtype) if rng.random() < 0.6 else None
            args = f"{a.name}, {w.name}" + (f", {bias.name}" if bias else "")
            hi = a.hi * w.hi * k + (bias.hi if bias else 0)
            if hi > HI_CAP * 10:
                return False
            return self.emit(f"F.linear({args})", batch + (m,), a.dtype, hi)
        if form == "mm" and a.ndim != 2:
            form = "at"
        if form == "matmul" and a.ndim >= 2 and rng.random() < 0.5:
            # batched: the other operand carries (broadcast) batch dims too
            bb = partner_shape(rng, a.shape[:-2])
            w = self.new_input(bb + (k, m), a.dtype)
            out_batch = broadcast(a.shape[:-2], bb)
            out = out_batch + (a.shape[-2], m)
            if numel(out) > MAX_NUMEL:
                return False
            return self.emit(f"torch.matmul({a.name}, {w.name})", out, a.dtype, a.hi * w.hi * k)
        w = self.new_input((k, m), a.dtype)
        e = {"at": f"{a.name} @ {w.name}", "matmul": f"torch.matmul({a.name}, {w.name})",
             "mm": f"torch.mm({a.name}, {w.name})"}[form]
        return self.emit(e, batch + (m,), a.dtype, a.hi * w.hi * k)

    def op_view(self):
        rng = self.rng
        a = self.pick(lambda v: v.ndim >= 1)
        if a is None:
            return False
        n, s = a.name, list(a.shape)
        nd = len(s)

        def out(expr, shape, const):
            v = self.emit(expr, shape, a.dtype, a.hi, lo=a.lo, exact=a.exact, const=const)
            v.alias = a.is_input or a.alias
            return v
        everything = frozenset(range(-8, 0)) if a.const else frozenset()
        form = rng.choice(["transpose", "permute", "slice", "narrow", "select", "unsqueeze", "squeeze", "expand",
                           "reshape", "flatten", "view"])
        if form == "transpose" and nd >= 2:
            d0, d1 = rng.sample(range(nd), 2)
            t = list(s)
            t[d0], t[d1] = t[d1], t[d0]
            c = set()
            for d in a.const:
                p = d % nd
                p = d1 if p == d0 else d0 if p == d1 else p
                c.add(p - nd)
            e = f"{n}.t()" if nd == 2 and rng.random() < 0.3 else rng.choice(
                [f"{n}.transpose({d0}, {d1})", f"torch.transpose({n}, {d0}, {d1})"])
            return out(e, t, frozenset(c))
        if form == "permute" and nd >= 2:
            perm = list(range(nd))
            rng.shuffle(perm)
            inv = {p: j for j, p in enumerate(perm)}
            c = frozenset(inv[d % nd] - nd for d in a.const)
            return out(f"{n}.permute({', '.join(map(str, perm))})", [s[p] for p in perm], c)
        d = rng.randrange(nd)
        if form == "slice" and s[d] >= 2:
            step = rng.choice([1, 2, 3])
            start = rng.randrange(min(3, s[d] - 1) + 1)
            stop = rng.choice([None, s[d] - rng.randrange(min(2, s[d] - start))])
            piece = f"{start}:{'' if stop is None else stop}" + (f":{step}" if step > 1 else "")
            size = len(range(start, s[d] if stop is None else stop, step))
            if size < 1:
                return False
            t = list(s)
            t[d] = size
            return out(n + slice_text(nd, d, piece), t, a.const)
        if form == "narrow" and s[d] >= 2:
            length = rng.randint(1, s[d] - 1)
            start = rng.randint(0, s[d] - length)
            t = list(s)
            t[d] = length
            return out(f"{n}.narrow({d}, {start}, {length})", t, a.const)
        if form == "select" and s[d] >= 2 and nd >= 2:
            idx = rng.randrange(s[d])
            t = s[:d] + s[d + 1:]
            c = frozenset((x % nd - (1 if x % nd > d else 0)) - (nd - 1) for x in a.const if x % nd != d)
            e = rng.choice([f"{n}.select({d}, {idx})", n + slice_text(nd, d, str(idx))])
            return out(e, t, c)
        if form == "unsqueeze" and nd < 4:
            p = rng.randint(0, nd)
            t = s[:p] + [1] + s[p:]
            c = frozenset((x % nd + (1 if x % nd >= p else 0)) - (nd + 1) for x in a.const) | {p - (nd + 1)}
            e = rng.choice([f"{n}.unsqueeze({p})", f"torch.unsqueeze({n}, {p})"])
            return out(e, t, c)
        if form == "squeeze":
            ones = [j for j in range(nd) if s[j] == 1]
            if not ones:
                return False
            p = rng.choice(ones)
            t = s[:p] + s[p + 1:]
            c = frozenset((x % nd - (1 if x % nd > p else 0)) - (nd - 1) for x in a.const if x % nd != p)
            return out(f"{n}.squeeze({p})", t, c)
        if form == "expand":
            ones = [j for j in range(nd) if s[j] == 1]
            if not ones:
                return False
            t = list(s)
            args = ["-1"] * nd
            grow = rng.sample(ones, rng.randint(1, len(ones)))
            for j in grow:
                t[j] = rng.randint(2, 7)
                args[j] = str(t[j])
            if numel(t) > MAX_NUMEL:
                return False
            c = a.const | frozenset(j - nd for j in grow)
            return out(f"{n}.expand({', '.join(args)})", t, c)
        if form in ("reshape", "view"):
            t = reshape_target(rng, s)
            if t is None:
                return False
            if form == "view":
                return out(f"{n}.contiguous().view({dims_text(t)})", t, everything)
            return out(f"{n}.reshape({shape_arg(t)})", t, everything)
        if form == "flatten":
            if rng.random() < 0.5 or nd < 2:
                return out(rng.choice([f"{n}.flatten()", f"{n}.reshape(-1)", f"torch.flatten({n})"]),
                           [numel(s)], everything)
            start = rng.randrange(nd - 1)
            t = s[:start] + [numel(s[start:])]
            return out(f"{n}.flatten({start})", t, everything)
        return False

    def op_inplace(self):
        rng = self.rng
        a = self.pick(lambda v: v.dtype != BOOL and v.hi <= HI_CAP)
        if a is None:
            return False
        fresh_expr = rng.choice([f"{a.name}.clone()", f"{a.name} * 1.0" if a.is_float else f"{a.name}.clone()",
                                 f"{a.name} + 0" if a.dtype == I64 else f"{a.name}.clone()"])
        u = self.emit(fresh_expr, a.shape, a.dtype, a.hi, lo=a.lo, exact=a.exact or a.dtype == I64,
                      const=a.const)
        form = rng.choice(["add_", "add_alpha", "sub_", "mul_", "mul_scalar", "clamp_", "relu_", "div_scalar",
                           "narrow_mul", "slice_add"])
        n = u.name
        if u.dtype == I64 and form in ("div_scalar", "relu_"):
            form = "mul_scalar"
        if form in ("add_", "add_alpha", "sub_", "mul_"):
            # Never u itself: PyTorch's autograd rejects `u.mul_(u)` at backward
            # (u is saved, then modified).
            if u.dtype == I64:
                b = self.partner(u, lambda v: v is not u and v.dtype in (I64, BOOL) and v.hi <= HI_CAP, dtype=I64,
                                 into=True)
            else:
                b = self.partner(u, lambda v: v is not u and v.dtype != BOOL and v.hi <= HI_CAP, dtype=u.dtype,
                                 into=True)
            if broadcast(u.shape, b.shape) != u.shape:
                return False
            if form == "mul_":
                hi = u.hi * b.hi
                line = f"{n}.mul_({b.name})"
            elif form == "add_alpha":
                alpha = 2 if u.dtype == I64 else rng.choice([0.5, -1.5])
                hi = u.hi + 2 * b.hi
                line = f"{n}.add_({b.name}, alpha={alpha})"
            else:
                hi = u.hi + b.hi
                line = f"{n}.{form}({b.name})"
            if hi > HI_CAP:
                return False
            u.exact = u.dtype == I64
            u.lo = None
        elif form == "mul_scalar":
            c = 3 if u.dtype == I64 else rng.choice([0.5, -2.0])
            hi = u.hi * abs(c)
            line = f"{n}.mul_({c})"
            u.exact = u.dtype == I64
            u.lo = None
        elif form == "div_scalar":
            hi = u.hi / 4.0
            line = f"{n}.div_(4.0)"
            u.lo = u.lo / 4.0 if u.lo is not None else None
            u.exact = False
        elif form == "clamp_":
            hi = min(u.hi, 1.0) if u.is_float else min(u.hi, 2)
            line = f"{n}.clamp_(-0.5, 1.0)" if u.is_float else f"{n}.clamp_(-2, 2)"
            u.lo = None
        elif form == "relu_":
            hi = u.hi
            line = f"{n}.relu_()"
            u.lo = None
        else:
            if u.ndim == 0:
                return False
            d = rng.randrange(u.ndim)
            if u.shape[d] < 2:
                return False
            u.lo = None
            u.exact = u.dtype == I64
            if form == "narrow_mul":
                length = rng.randint(1, u.shape[d] - 1)
                start = rng.randint(0, u.shape[d] - length)
                c = 3 if u.dtype == I64 else -2.0
                line = f"{n}.narrow({d}, {start}, {length}).mul_({c})"
                hi = u.hi * 3
            else:
                c = 1 if u.dtype == I64 else 1.5
                line = f"{n}{slice_text(u.ndim, d, '::2')}.add_({c})"
                hi = u.hi + 1.5
            u.const = frozenset(range(-8, 0))
        u.hi = hi
        self.body.append(f"    {line}")
        return u

    def index_input(self, shape, high):
        """An int64 input of indices in [0, high), in any layout; not in the pool."""
        k = len(self.params)
        base, post, _ = layout_for(self.rng, shape)
        self.make.append(f"    b{k} = torch.randint(0, {high}, {shape_arg(base)})")
        self.params.append(f"x{k}")
        self.args.append(f"b{k}{post}")
        return f"x{k}"

    def op_index(self):
        """Gathers (embedding, index_select, gather, the losses), the domain
        index (arange, tril/triu) and cat: exact copies, so they keep `exact`."""
        rng = self.rng
        a = self.pick(lambda v: v.ndim >= 1 and v.hi <= HI_CAP)
        if a is None:
            return False
        n, nd = a.name, a.ndim
        anything = frozenset(range(-8, 0)) if a.const else frozenset()
        form = rng.choice(["embedding", "index_select", "gather", "nll", "cross_entropy", "tri", "arange", "cat"])
        if form == "embedding" and nd == 2:
            shape = tuple(rand_dim(rng) for _ in range(rng.randint(1, 2)))
            if numel(shape) * a.shape[1] > MAX_NUMEL:
                return False
            i = self.index_input(shape, a.shape[0])
            e = rng.choice([f"F.embedding({i}, {n})", f"torch.nn.functional.embedding({i}, {n})"])
            return self.emit(e, shape + (a.shape[1],), a.dtype, a.hi, exact=a.exact, const=anything)
        if form == "index_select":
            d = self.dim(a)
            k = rand_dim(rng)
            shape = list(a.shape)
            shape[d] = k
            if numel(shape) > MAX_NUMEL:
                return False
            i = self.index_input((k,), a.shape[d])
            e = rng.choice([f"torch.index_select({n}, {d}, {i})", f"{n}.index_select({d}, {i})"])
            return self.emit(e, shape, a.dtype, a.hi, exact=a.exact, const=anything)
        if form == "gather":
            d = self.dim(a)
            i = self.index_input(a.shape, a.shape[d])
            e = rng.choice([f"torch.gather({n}, {d}, {i})", f"{n}.gather({d}, {i})"])
            return self.emit(e, a.shape, a.dtype, a.hi, exact=a.exact, const=anything)
        if form in ("nll", "cross_entropy") and nd == 2 and a.is_float and a.hi <= 50:
            rows, classes = a.shape
            t = self.index_input((rows,), classes)
            reduction = rng.choice(["mean", "mean", "sum", "none"])
            extra = f", reduction='{reduction}'"
            if rng.random() < 0.3:
                extra += f", ignore_index={rng.randrange(classes)}"
            if rng.random() < 0.3:  # class weights: no gradient (PyTorch has no derivative for them)
                k = len(self.params)
                dt = "" if a.dtype == F32 else ", dtype=torch.float64"
                self.make.append(f"    b{k} = torch.rand({classes}{dt}) + 0.1")
                self.params.append(f"x{k}")
                self.args.append(f"b{k}")
                extra += f", weight=x{k}"
            hi = 2 * a.hi + math.log(classes) + 1
            x = n if form == "cross_entropy" else f"F.log_softmax({n}, 1)"
            shape = (rows,) if reduction == "none" else ()
            scale = rows if reduction == "sum" else 1
            return self.emit(f"F.{'cross_entropy' if form == 'cross_entropy' else 'nll_loss'}({x}, {t}{extra})",
                             shape, a.dtype, hi * scale * 1.1)
        if form == "tri" and nd >= 2:
            k = rng.randint(-2, 2)
            fn = rng.choice(["tril", "triu"])
            e = rng.choice([f"torch.{fn}({n}, {k})", f"{n}.{fn}({k})"])
            return self.emit(e, a.shape, a.dtype, a.hi, exact=a.exact, const=anything)
        if form == "arange":
            size = a.shape[-1]
            if rng.random() < 0.5:
                r = f"torch.arange({size})"
                hi = size
            else:
                r = f"torch.arange(1, {2 * size + 1}, 2)"
                hi = 2 * size + 1
            if a.is_float:
                return self.emit(f"{n} * {r}", a.shape, a.dtype, a.hi * hi)
            return self.emit(f"{n} + {r}", a.shape, I64, a.hi + hi, exact=a.exact)  # bool + int64: int64
        if form == "cat":
            d = self.dim(a)
            shape = list(a.shape)
            shape[d] = rand_dim(rng)
            if numel(shape) + numel(a.shape) > MAX_NUMEL:
                return False
            b = self.new_input(tuple(shape), a.dtype)
            shape[d] += a.shape[d]
            parts = f"[{n}, {b.name}]" if rng.random() < 0.5 else f"({b.name}, {n})"
            return self.emit(f"torch.cat({parts}, {d})", shape, a.dtype, max(a.hi, b.hi), exact=a.exact and b.exact)
        return False

    # ---- the case -------------------------------------------------------

    def build(self):
        rng = self.rng
        for _ in range(rng.randint(1, 2)):
            shape = partner_shape(rng, self.base) if self.pool else self.base
            self.new_input(shape, self.input_dtype(), positive=rng.random() < 0.1)
        families = [(self.op_unary, 26), (self.op_binary, 24), (self.op_reduce, 12), (self.op_matmul, 6),
                    (self.op_view, 12), (self.op_inplace, 6), (self.op_where, 5), (self.op_compare, 3),
                    (self.op_bool, 3), (self.op_index, 6)]
        if self.mode == "int":
            families.append((self.op_int, 20))
        ops, weights = zip(*families)
        want = rng.randint(2, 10)
        made = 0
        tries = 0
        while made < want and tries < 60:
            tries += 1
            if rng.choices(ops, weights=weights)[0]():
                made += 1
        results = [v for v in self.pool if not v.is_input]
        if not results:
            results = [self.emit(f"{self.pool[-1].name}.clone()", self.pool[-1].shape, self.pool[-1].dtype,
                                 self.pool[-1].hi)]
        outs = [results[-1]]
        unused = [v for v in results[:-1] if not v.uses]
        if unused and rng.random() < 0.5:
            outs = rng.sample(unused, min(len(unused), rng.randint(1, 2))) + outs
        elif len(results) > 1 and rng.random() < 0.2:
            outs.insert(0, rng.choice(results[:-1]))
        if all(v.alias for v in outs):
            # Views alone record no kernel, so the compiled call would run no
            # graph at all; one real op makes it compare a graph.
            last = outs[-1]
            outs.append(self.emit(f"{last.name}.clone()", last.shape, last.dtype, last.hi, exact=last.exact))
        self.outputs = outs
        has_float_input = any(v.is_input and v.is_float for v in self.pool)
        self.grad = has_float_input and rng.random() < 0.35
        return self

    def function_text(self):
        head = f"def case_{self.index}({', '.join(self.params)}):"
        ret = "    return " + ", ".join(v.name for v in self.outputs)
        return "\n".join([head] + self.body + [ret]) + "\n"

    def make_text(self):
        lines = [f"def make_{self.index}(rg):", f"    torch.manual_seed({self.torch_seed})"] + self.make
        lines.append(f"    return [{', '.join(self.args)}], [{', '.join(self.leaves)}]")
        return "\n".join(lines) + "\n"

    def source(self):
        return self.function_text() + "\n" + self.make_text()


def reduced(shape, dims, keep):
    dims = {d % len(shape) for d in dims}
    if keep:
        return tuple(1 if j in dims else s for j, s in enumerate(shape))
    return tuple(s for j, s in enumerate(shape) if j not in dims)


def reduced_const(a, dims, keep):
    dims = {d % a.ndim for d in dims}
    if keep:
        return a.const | frozenset(d - a.ndim for d in dims)
    out_nd = a.ndim - len(dims)
    kept = [j for j in range(a.ndim) if j not in dims]
    return frozenset(kept.index(x % a.ndim) - out_nd for x in a.const if x % a.ndim not in dims)


def reshape_target(rng, s):
    nd = len(s)
    options = []
    if nd >= 2:
        j = rng.randrange(nd - 1)
        options.append(s[:j] + [s[j] * s[j + 1]] + s[j + 2:])
    splits = [(j, f) for j in range(nd) for f in range(2, s[j]) if s[j] % f == 0]
    if splits and nd < 4:
        j, f = rng.choice(splits)
        options.append(s[:j] + [f, s[j] // f] + s[j + 1:])
    if nd < 4:
        p = rng.randint(0, nd)
        options.append(s[:p] + [1] + s[p:])
    options.append([numel(s)])
    return rng.choice(options) if options else None


HARNESS = r'''# Generated by tests/jit/differential/gen_differential.py (seed SEED): each
# case_I runs compiled (torch.compile, twice) and eager (torch.compiler.disable)
# on the same inputs from make_I; outputs (and gradients when requires_grad)
# must agree. Runs unchanged under CPython + PyTorch too.
import torch
import torch.nn.functional as F

RTOL = RTOL_VALUE
ATOL = ATOL_VALUE
BACKEND = BACKEND_VALUE  # None: torch.compile's default backend


def _describe(t):
    if t is None:
        return 'None'
    return str(t.dtype).replace('torch.', '') + str(list(t.shape))


def _differ(got, ref):
    if got is None or ref is None:
        if got is None and ref is None:
            return None
        return 'compiled ' + _describe(got) + ', eager ' + _describe(ref)
    if got.dtype != ref.dtype or got.shape != ref.shape:
        return 'compiled ' + _describe(got) + ', eager ' + _describe(ref)
    if got.dtype == torch.float32 or got.dtype == torch.float64:
        if torch.allclose(got, ref, rtol=RTOL, atol=ATOL, equal_nan=True):
            return None
        diff = (got.double() - ref.double()).abs().max().item()
        return 'max abs diff ' + str(diff) + ' (' + _describe(got) + ')'
    if torch.equal(got, ref):
        return None
    return str((got != ref).long().sum().item()) + ' elements differ (' + _describe(got) + ')'


def _pass(fn, make, grad):
    args, leaves = make(grad)
    outs = fn(*args)
    if not isinstance(outs, tuple):
        outs = (outs,)
    grads = []
    if grad:
        loss = None
        for o in outs:
            if o.requires_grad:
                loss = o.sum() if loss is None else loss + o.sum()
        if loss is not None:
            loss.backward()
        grads = [leaf.grad for leaf in leaves]
    return list(outs), grads


_eager_pass = torch.compiler.disable(_pass)


def _compare(what, got, ref, problems):
    if len(got) != len(ref):
        problems.append(what + ': ' + str(len(got)) + ' values, eager ' + str(len(ref)))
        return
    for j in range(len(got)):
        d = _differ(got[j], ref[j])
        if d is not None:
            problems.append(what + ' ' + str(j) + ': ' + d)


def _run(i, fn, make, grad, src):
    try:
        compiled = torch.compile(fn) if BACKEND is None else torch.compile(fn, backend=BACKEND)
        first = _pass(compiled, make, grad)
        second = _pass(compiled, make, grad)
        ref = _eager_pass(fn, make, grad)
        problems = []
        for call, got in ((1, first), (2, second)):
            _compare('call ' + str(call) + ' output', got[0], ref[0], problems)
            _compare('call ' + str(call) + ' grad of leaf', got[1], ref[1], problems)
    except Exception as e:
        print('case', i, 'ERROR', type(e).__name__ + ':', str(e).replace('\n', ' '), '| source:', repr(src))
        return
    if problems:
        print('case', i, 'MISMATCH', '; '.join(problems), '| source:', repr(src))
    else:
        print('case', i, 'ok')
'''


def script_text(cases, seed, backend):
    head = (HARNESS.replace("SEED", str(seed)).replace("RTOL_VALUE", repr(RTOL)).replace("ATOL_VALUE", repr(ATOL))
            .replace("BACKEND_VALUE", repr(backend)))
    parts = [head]
    for c in cases:
        parts.append("\n\n" + c.function_text() + "\n\n" + c.make_text() + "\n\n")
        parts.append(f"_run({c.index}, case_{c.index}, make_{c.index}, {c.grad}, {c.source()!r})\n")
    return "".join(parts)


def parse_output(text):
    ok, bad = set(), {}
    for line in text.splitlines():
        words = line.split(" ", 3)
        if len(words) >= 3 and words[0] == "case" and words[1].isdigit():
            i = int(words[1])
            if words[2] == "ok" and len(words) == 3:
                ok.add(i)
            else:
                bad[i] = line
    return ok, bad


def compiled_cases(report):
    """Case indices whose torch.compile region ran graphs, never the interpreter."""
    done = set()
    for r in report.get("regions", []):
        name = r.get("name", "")
        if r.get("kind") != "compiled" or not name.startswith("case_") or not name[5:].isdigit():
            continue
        runs = sum(g.get("runs", 0) for g in r.get("graphs", []))
        if runs >= 2 and r.get("eager_runs", 0) == 0:
            done.add(int(name[5:]))
    return done


def fused_kernel_share(report):
    """(compiled case graphs with at least one fused kernel, compiled case graphs)."""
    fused = total = 0
    for r in report.get("regions", []):
        if r.get("kind") != "compiled" or not r.get("name", "").startswith("case_"):
            continue
        for g in r.get("graphs", []):
            total += 1
            fused += g.get("kernels", 0) > 0
    return fused, total


def backward_fallbacks(report):
    """Backward passes that ran in the interpreter instead of as graphs."""
    return sum(r.get("eager_runs", 0) for r in report.get("regions", []) if r.get("kind") == "backward")


def expect_mismatch(proc, ok, bad):
    mismatched = [line for line in bad.values() if line.split(" ")[2] == "MISMATCH"]
    errors = [line for line in bad.values() if line.split(" ")[2] != "MISMATCH"]
    print(f"{len(ok)} cases ok, {len(mismatched)} mismatched, {len(errors)} errors, kiln exit {proc.returncode}")
    for line in errors[:5]:
        print(line[:600])
    if mismatched:
        print("first mismatch found:", mismatched[0][:300])
    if proc.returncode != 0 or errors or not mismatched:
        print("FAIL: the injected fault must show as mismatches, with no errors")
        return 1
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kiln")
    p.add_argument("--shard", default="0/1", help="K/N: run the K-th of N equal parts of the cases")
    p.add_argument("--only", default="", help="comma-separated case indices to run instead")
    p.add_argument("--work-dir", default=".", help="where the generated script is written")
    p.add_argument("--write-only", action="store_true", help="write the script, do not run it")
    p.add_argument("--cases", type=int, help="number of cases (overrides KILN_DIFF_CASES)")
    p.add_argument("--backend", help="torch.compile backend (default: torch.compile's default)")
    p.add_argument("--expect-mismatch", action="store_true",
                   help="the checker's own test: pass only when some case mismatches (run it with "
                        "KILN_JIT_CHECK=1 KILN_JIT_CHECK_FAULT=op, which corrupts that op's output in graphs)")
    opts = p.parse_args()

    seed = int(os.environ.get("KILN_DIFF_SEED") or DEFAULT_SEED)
    total = opts.cases if opts.cases is not None else int(os.environ.get("KILN_DIFF_CASES") or DEFAULT_CASES)
    if opts.only:
        indices = [int(x) for x in opts.only.split(",") if x.strip()]
        tag = "only"
    else:
        k, n = (int(x) for x in opts.shard.split("/"))
        if not 0 <= k < n:
            raise SystemExit(f"--shard {opts.shard}: want K/N with 0 <= K < N")
        indices = list(range(total * k // n, total * (k + 1) // n))
        tag = f"shard{k}of{n}"
    cases = [Case(i, seed).build() for i in indices]
    os.makedirs(opts.work_dir, exist_ok=True)
    path = os.path.join(os.path.abspath(opts.work_dir), f"differential_{tag}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(script_text(cases, seed, opts.backend))
    print(f"seed {seed}: {len(cases)} cases ({indices[0] if indices else '-'}..{indices[-1] if indices else '-'}) "
          f"written to {path}")
    if opts.write_only or not cases:
        return 0

    env = dict(os.environ)
    # Only the torch.compile calls may capture: the harness stays in the
    # interpreter, so every graph holds exactly one case's ops. Compilation is
    # synchronous, or an early call could still run on the reference executor.
    # Every case's backward is another graph of the one backward region: no
    # cache limit, or later backward passes would run in the interpreter.
    env.update(KILN_HOT_CALLS="1000000000", KILN_HOT_LOOPS="1000000000", KILN_ASYNC_COMPILE="0",
               KILN_CACHE_LIMIT="1000000000")
    # Kernels compiled here stay out of the user's disk cache.
    env.setdefault("KILN_CACHE_DIR", os.path.join(os.path.dirname(path), "kiln-cache"))
    proc = subprocess.run([opts.kiln, "explain", "--json", "--threads", "2", path], env=env, capture_output=True,
                          text=True, cwd=os.path.dirname(path))
    ok, bad = parse_output(proc.stderr)
    if opts.expect_mismatch:
        return expect_mismatch(proc, ok, bad)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        report = {}
    compiled = compiled_cases(report)

    by_index = {c.index: c for c in cases}
    failures = []
    for i in indices:
        if i in bad:
            failures.append((i, bad[i]))
        elif i not in ok:
            failures.append((i, f"case {i} printed no result line"))
        elif i not in compiled:
            failures.append((i, f"case {i}: its torch.compile region ran no graph twice (or fell back to the "
                                "interpreter): the comparison was eager against eager"))
    for i, line in failures[:20]:
        print(f"\n---- {line if len(line) < 600 else line[:600] + ' ...'}")
        print(by_index[i].source())
        print(f"reproduce: KILN_DIFF_SEED={seed} {sys.executable} {os.path.abspath(__file__)} {opts.kiln} "
              f"--only {i} --work-dir /tmp/kiln-diff")
    if len(failures) > 20:
        print(f"\n... and {len(failures) - 20} more failing cases: {', '.join(str(i) for i, _ in failures[20:])}")
    fallbacks = backward_fallbacks(report)
    if fallbacks:
        print(f"\n{fallbacks} backward passes ran in the interpreter, not as graphs: their gradients compared "
              "eager against eager")
    if proc.returncode != 0:
        tail = "\n".join(l for l in proc.stderr.splitlines() if not l.startswith("case "))[-3000:]
        print(f"\nkiln exited with status {proc.returncode}; its other output:\n{tail}")
    passed = len(indices) - len(failures)
    # Under the LLVM backend most cases must really run fused kernels, or the
    # comparison is the reference executor against itself.
    fused, graphs = fused_kernel_share(report)
    llvm = os.environ.get("KILN_BACKEND", "llvm") == "llvm" and opts.backend != "eager"
    too_few = llvm and graphs > 0 and fused < graphs // 2
    print(f"\n{passed}/{len(indices)} cases ok, {len(failures)} failing; {fused} of {graphs} compiled graphs "
          f"ran fused kernels{'' if report else ' (no explain report: could not check that graphs were compiled)'}")
    if too_few:
        print("fewer than half the compiled graphs ran fused kernels: the LLVM backend was not exercised")
    return 0 if not failures and not fallbacks and not too_few and proc.returncode == 0 and report else 1


if __name__ == "__main__":
    sys.exit(main())
