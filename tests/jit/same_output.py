"""Whether two runs of a script printed the same thing, numbers compared as
the oracle suite compares them (tests/oracle/outcmp.cpp): equal text around
them, and each pair of numbers within a relative 1e-4, or 1e-5 apart (a
value printed with five decimals that sits on a rounding boundary). The JIT
computes in another order than the interpreter (fused reductions, inline
exp/tanh/erf within 1-3 ulp of libm), as torch.compile does against eager,
so the last printed digit of a value may differ between --jit=off and auto.
"""
import re

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _split(text):
    numbers = [m.group(0) for m in _NUMBER.finditer(text)]
    return _NUMBER.sub("#", text), numbers


def same_output(a, b):
    shape_a, nums_a = _split(a)
    shape_b, nums_b = _split(b)
    if shape_a != shape_b or len(nums_a) != len(nums_b):
        return False
    for x, y in zip(nums_a, nums_b):
        if x == y:
            continue
        fx, fy = float(x), float(y)
        if abs(fx - fy) > max(1e-4 * max(abs(fx), abs(fy)), 1e-5):
            return False
    return True
