#!/usr/bin/env python3
"""Fits the coefficients of the inline float32 erf (jit/llvm_erf.cpp) and
prints them as C++ arrays, with the max error of the float32 evaluation (FMA
emulated in double) on a sample of inputs. Needs numpy.

  |x| < SWITCH: erf(x) = x + x * S(x^2)
  otherwise:    erf(x) = sign(x) * (1 - Q(min(|x|, CLAMP))^16)
"""
import math

import numpy as np

SWITCH, CLAMP, SMALL_DEGREE, LARGE_DEGREE, POWER = 1.3, 4.0, 6, 5, 16
ULP_NEAR_1 = 2.0**-24
erf, erfc = np.vectorize(math.erf), np.vectorize(math.erfc)


def minimax(basis, f, weight, iters=200):
    """min over c of max |weight * (basis @ c - f)|, by Lawson's reweighted least squares."""
    a, b = basis * weight[:, None], f * weight
    w = np.full(len(f), 1.0 / len(f))
    for _ in range(iters):
        c = np.linalg.lstsq(a * np.sqrt(w)[:, None], b * np.sqrt(w), rcond=None)[0]
        w *= np.abs(a @ c - b)
        w /= w.sum()
    return c


def fit_rounded(v, f, weight, degree):
    """Rounds the coefficients to float32 from the highest, refitting the lower ones each time."""
    fixed = {}
    for j in range(degree, -1, -1):
        rest = f - sum(c * v**i for i, c in fixed.items())
        c = minimax(np.stack([v**i for i in range(j + 1)], 1), rest, weight)
        fixed[j] = float(np.float32(c[j]))
    return [fixed[i] for i in range(degree, -1, -1)]  # highest first


def horner(v, coeffs):
    p = np.full_like(v, coeffs[0])
    for c in coeffs[1:]:
        p = (p.astype(np.float64) * v + c).astype(np.float32)  # one rounding, as fma
    return p


def evaluate(x, small, large):
    a, u = np.abs(x), (x * x).astype(np.float32)
    s = (x.astype(np.float64) * horner(u, small) + x).astype(np.float32)
    q = horner(np.minimum(a, np.float32(CLAMP)), large)
    for _ in range(int(math.log2(POWER)) - 1):
        q = (q * q).astype(np.float32)
    l = np.copysign((1.0 - q.astype(np.float64) * q).astype(np.float32), x)
    return np.where(a < np.float32(SWITCH), s, l)


def main():
    x = np.linspace(1e-4, SWITCH * 1.001, 6000)
    ratio = erf(x) / x - 1
    small = fit_rounded(x * x, ratio, 1 / (1 + ratio), SMALL_DEGREE)
    a = np.linspace(SWITCH * 0.999, CLAMP, 8000)
    e = erfc(a)
    q = e ** (1.0 / POWER)
    large = fit_rounded(a, q, POWER * e / q / ULP_NEAR_1, LARGE_DEGREE)
    for name, coeffs in (("kSmall", small), ("kLarge", large)):
        print(f"constexpr float {name}[] = {{{', '.join('%.9gf' % c for c in coeffs)}}};")

    bits = np.arange(0, np.float32(5.0).view(np.int32), 97, dtype=np.int32)
    xs = bits.view(np.float32)
    want = erf(xs.astype(np.float64)).astype(np.float32)
    got = evaluate(xs, np.float32(small), np.float32(large))
    ulps = np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32))
    i = int(np.argmax(ulps))
    print(f"max {ulps[i]} ulp at x={xs[i]!r} over {len(xs)} inputs in [0, 5)")


if __name__ == "__main__":
    main()
