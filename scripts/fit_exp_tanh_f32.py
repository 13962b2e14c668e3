#!/usr/bin/env python3
"""Fits the coefficients of the inline float32 exp and tanh (jit/llvm_exp_tanh.cpp)
and prints them as C++ arrays, with the max error of the float32 evaluation
(FMA emulated in double) on a sample of inputs. Needs numpy.

  exp:  e^x = 2^n (1 + s),  s = r + r^2 * P(r),  |r| <= ln2/2   P: degree EXP_DEGREE
  tanh: tanh(a) = E / (E + 2),  E = e^2a - 1 = 2^n s + (2^n - 1)  (no coefficients of its own)
"""
import math

import numpy as np

from fit_erf_f32 import fit_rounded  # the fitter both scripts share

EXP_DEGREE, TANH_CLAMP = 4, 9.1
LN2_HI = float(np.float32(math.log(2)))
LN2_LO = float(np.float32(math.log(2) - LN2_HI))


def fma(a, m, c):
    return (a.astype(np.float64) * m + c).astype(np.float32)


def horner(v, coeffs):
    p = np.full_like(v, coeffs[0])
    for c in coeffs[1:]:
        p = fma(p, v, np.float32(c))
    return p


def reduce(x, coeffs):
    n = np.rint((x.astype(np.float64) * np.float32(1 / math.log(2))).astype(np.float32))
    r = fma(-n, np.float32(LN2_HI), x)
    r = fma(-n, np.float32(LN2_LO), r)
    return n, fma(horner(r, coeffs), (r * r).astype(np.float32), r)


def exp_f32(x, coeffs):
    n, s = reduce(x, coeffs)
    p = (s + np.float32(1)).astype(np.float32)
    return np.ldexp(p.astype(np.float64), n.astype(np.int32)).astype(np.float32)  # one rounding, as the two-step scaling


def tanh_f32(x, coeffs):
    a = np.minimum(np.abs(x), np.float32(TANH_CLAMP))
    n, s = reduce((2 * a).astype(np.float32), coeffs)
    scale = np.ldexp(np.float32(1), n.astype(np.int32)).astype(np.float32)
    e = fma(scale, s, (scale - np.float32(1)).astype(np.float32))
    return np.copysign((e / (e + np.float32(2)).astype(np.float32)).astype(np.float32), x)


def ulps(got, want):
    o = lambda v: np.where(v.view(np.int32) < 0, -(v.view(np.int32) & 0x7FFFFFFF).astype(np.int64), v.view(np.int32))
    return np.abs(o(got) - o(want))


def main():
    r = np.linspace(-math.log(2) / 2 * 1.01, math.log(2) / 2 * 1.01, 8000)
    r = r[np.abs(r) > 1e-6]
    e = np.exp(r)
    exp_c = fit_rounded(r, (e - 1 - r) / r**2, r**2 / e, EXP_DEGREE)
    print(f"constexpr float kExp[] = {{{', '.join('%.9gf' % c for c in exp_c)}}};")
    print(f"ln2 = {LN2_HI!r} + {LN2_LO!r}")

    xs = np.arange(0, np.float32(88).view(np.int32), 61, dtype=np.int32).view(np.float32)
    xs = np.concatenate([xs, -np.arange(0, np.float32(87).view(np.int32), 61, dtype=np.int32).view(np.float32)])
    d = ulps(exp_f32(xs, exp_c), np.exp(xs.astype(np.float64)).astype(np.float32))
    print(f"exp: max {d.max()} ulp at x={xs[np.argmax(d)]!r} over {len(xs)} inputs")
    xs = np.arange(1, np.float32(10).view(np.int32), 37, dtype=np.int32).view(np.float32)
    d = ulps(tanh_f32(xs, exp_c), np.tanh(xs.astype(np.float64)).astype(np.float32))
    print(f"tanh: max {d.max()} ulp at x={xs[np.argmax(d)]!r} over {len(xs)} inputs")


if __name__ == "__main__":
    main()
