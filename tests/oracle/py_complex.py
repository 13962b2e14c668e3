# Python complex numbers: literals, complex(), arithmetic, repr/str/format, hash, cmath.
import cmath
import math

# literals and repr: a zero real part is omitted only when it is +0
print(1j, 2.5j, 1e3j, 0j, -1j, 1 + 2j, 1.5 - 2j, 007j, .5j, 1_000j, 1E-3J)
print(repr(-0j), -(0j), complex(-0.0, 0.0), complex(0.0, -0.0), 1e20j, 1e16 + 1e-5j, 1e300 * 1e300j)
nan, inf = float('nan'), float('inf')
print(complex(nan, inf), complex(-inf, nan), complex(inf, -inf), complex(1e-320, 5e-324))
print(str(3 + 4j), [1j, 2 + 0j], (1j,), {'k': 1 - 1j}, 1j.real, 1j.imag, (3 - 4j).conjugate())
print(type(1j), type(1j).__name__, isinstance(1j, complex), isinstance(1, complex), type(1j) is complex)

# the constructor
print(complex(), complex(1), complex(1.5), complex(True), complex(2, 3), complex(2.5, -0.5), complex(real=1, imag=2))
print(complex(1, 2j), complex(1j, 2), complex(1j, 2j), complex(1 + 2j), complex(1.0, -0.0), complex(-0.0))
for s in ['1+2j', ' (1e3-4J) ', 'j', '-j', '+1.5j', '3', 'inf+nanj', '-1e-3-2.5e+2j', '(2)', '1E5J', 'infj']:
    print(repr(s), complex(s))
for bad in ['1 + 2j', '', '()', 'j1', '1+2', '1++2j', 'abc', '(1+2j', '1j+2', '1+2jj', '+-2j']:
    try:
        print(complex(bad))
    except ValueError as e:
        print('ValueError', e)

# arithmetic with int, float and complex (CPython 3.11: a real operand is complex(x, 0.0) first)
a, b = 3 + 4j, 1 - 2j
print(a + b, a - b, a * b, a / b, a ** 2, -a, +a, abs(a), abs(-5j), a == 3 + 4j, a != b)
print(a + 1, 1 + a, a - 1.5, 1.5 - a, a * 2, 2 * a, a / 2, 2 / a, True + a, a * False)
print(1j * 1j, 1j ** 2, 2 ** 1j, 1j ** 1j, (1 + 1j) ** 0.5, (1 + 1j) ** -3, (2 - 1j) ** 10, 0j ** 0)
print((1 + 2j) ** (3 + 4j), (-8) ** (1 / 3), (-1) ** 0.5, pow(-2.0, 1.5), 1e200j * 1e200j, 1 / (1e-320 + 0j), (1e-200j) ** 3)
print(0.1 + 0.2j + 0.3, (0.1 + 0.2j) * (0.3 - 0.4j), (1e308 + 1e308j) / (1e308 + 1e308j), 1j / (0 + 1e-310j))
print(-1.0 * 1j, 1j * -1.0, (1 - 0j) * 2.0, 2.0 * complex(-0.0, 1), (1 + 2j) - 1.0, 1.0 - 0j, 0j - 0j)
print(a == 5, 3 + 0j == 3, 3 + 0j == 3.0, 1j == 1, 1j == 'j', 1j != None, 2 == 2 + 0j, [1j, 2j].index(2j))
print(sum([1j, 2, 3.5 - 1j]), sum([0.5j] * 4), bool(0j), bool(1e-300j), bool(complex(0, -0.0)), not 1j)
z = 1 + 1j
z += 1
z *= 1j
z -= 0.5j
z /= 2
z **= 2
print(z)

# hash: equal to the real's hash when the imaginary part is zero
print(hash(1 + 2j), hash(3 + 0j) == hash(3), hash(1.5 + 0j) == hash(1.5), hash(-1 + 0j), hash(0j), hash(2.5 - 1e10j))
print(hash(complex(1e300, -1e300)), hash(-1j), hash(complex(-7, 3)), 1j in [0, 1j], (1 + 1j) in (1, 2))

# format
print(f'{1 + 2j}', f'{1.5 - 2j:.2f}', f'{2j:>8}|', f'{1.5 - 2j:^14.3}|', f'{3 + 4j:e}', f'{-1 - 1j:+.1f}')
print(format(1j, ''), format(1j, '.2f'), format(0j, 'g'), format(1e20 + 1j, ''), format(1 + 1j, '<10') + '|')
print(format(-0.5j, ' .3f'), format(123456.789 + 1j, ',.2f'), format(2 + 3j, '*^15'), format(1.25 + 1j, 'G'))
print('{:.3}'.format(1 / 3 + 2j / 3), '{0.real} {0.imag}'.format(2 - 3j), '%s %r' % (1j, 2 + 1j), str(1e-7j))
for spec in ['05', '=10', '%', 'd', 'x', '.f']:
    try:
        print(format(1 + 2j, spec))
    except ValueError as e:
        print('ValueError', e)

# cmath
print(cmath.sqrt(-1), cmath.sqrt(3 + 4j), cmath.sqrt(2j), cmath.sqrt(-4 - 0j), cmath.sqrt(0j), cmath.sqrt(-2.5))
print(cmath.exp(1j * cmath.pi), cmath.exp(0), cmath.exp(1 + 1j), cmath.exp(-2.5 + 0.5j))
print(cmath.log(1j), cmath.log(-1), cmath.log(1 + 1j), cmath.log(10 + 5j), cmath.log(8, 2), cmath.log10(100j))
print(cmath.phase(-1), cmath.phase(-1 - 0j), cmath.phase(1j), cmath.polar(1 + 1j), cmath.polar(-2))
print(cmath.rect(2, cmath.pi / 2), cmath.rect(1, 0), cmath.rect(3, -math.pi / 3))
print(cmath.pi, cmath.e, cmath.tau, cmath.inf, cmath.infj, cmath.nanj, cmath.isnan(cmath.nanj), cmath.isinf(1j))
print(cmath.isclose(1 + 1j, 1 + 1.0000000001j), cmath.isclose(1j, 1.1j), cmath.isclose(1j, 1.1j, rel_tol=0.2),
      cmath.isclose(0j, 1e-10j, abs_tol=1e-9), cmath.isfinite(1 + 1j), cmath.isfinite(complex(inf, 0)))
w = cmath.sin(1 + 2j), cmath.cos(1 - 1j), cmath.tan(0.5 + 0.5j)
print([(round(v.real, 12), round(v.imag, 12)) for v in w])

# errors: CPython's types and messages
for bad in [lambda: 1j < 2j, lambda: 1j >= 1, lambda: 1 > 1j, lambda: (1 + 1j) / 0, lambda: 1 / 0j,
            lambda: 1j // 2, lambda: 1j % 2, lambda: 0j ** -1, lambda: 0j ** 1j, lambda: int(1j),
            lambda: float(1j), lambda: complex('1', 2), lambda: complex(1, '2'), lambda: complex(None),
            lambda: complex(1, None), lambda: 1j + 'a', lambda: (1 + 1j) ** 1e300, lambda: 10j ** 400, lambda: [1][abs(1j) * 1j],
            lambda: round(1j), lambda: sorted([2j, 1j]), lambda: pow(1j, 2, 3), lambda: cmath.log(0),
            lambda: abs(complex(1e308, 1e308)), lambda: cmath.sqrt('x'), lambda: max(1j, 2j), lambda: -'a']:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__ + ':', e)
