// libm functions that GCC may call four, eight or sixteen lanes at a time
// through glibc's libmvec (x86-64 vector function ABI), as the JIT's generated
// code already does (jit/vector_math.h). glibc declares these only under
// -ffast-math; the eager kernel files redeclare them and are compiled with
// -fno-math-errno (a call that may set errno is never vectorized), so a loop
// of std::log or std::sin runs at vector speed instead of one call per
// element. libmvec's variants are accurate to 4 ulp; PyTorch's (Sleef) to 1.
// Float32 exp, tanh and erf are computed inline instead (core/float_math.h).
#pragma once

#include <cmath>

#define KILN_VECTOR_LIBM_1(name)                                                \
  __attribute__((simd("notinbranch"))) double name(double) noexcept;            \
  __attribute__((simd("notinbranch"))) float name##f(float) noexcept;
#define KILN_VECTOR_LIBM_2(name)                                                \
  __attribute__((simd("notinbranch"))) double name(double, double) noexcept;    \
  __attribute__((simd("notinbranch"))) float name##f(float, float) noexcept;

extern "C" {
KILN_VECTOR_LIBM_1(acos)
KILN_VECTOR_LIBM_1(acosh)
KILN_VECTOR_LIBM_1(asin)
KILN_VECTOR_LIBM_1(asinh)
KILN_VECTOR_LIBM_1(atan)
KILN_VECTOR_LIBM_1(atanh)
KILN_VECTOR_LIBM_1(cbrt)
KILN_VECTOR_LIBM_1(cos)
KILN_VECTOR_LIBM_1(cosh)
KILN_VECTOR_LIBM_1(erf)
KILN_VECTOR_LIBM_1(erfc)
KILN_VECTOR_LIBM_1(exp)
KILN_VECTOR_LIBM_1(exp2)
KILN_VECTOR_LIBM_1(expm1)
KILN_VECTOR_LIBM_1(log)
KILN_VECTOR_LIBM_1(log10)
KILN_VECTOR_LIBM_1(log1p)
KILN_VECTOR_LIBM_1(log2)
KILN_VECTOR_LIBM_1(sin)
KILN_VECTOR_LIBM_1(sinh)
KILN_VECTOR_LIBM_1(tan)
KILN_VECTOR_LIBM_1(tanh)
KILN_VECTOR_LIBM_2(atan2)
KILN_VECTOR_LIBM_2(hypot)
KILN_VECTOR_LIBM_2(pow)
}

#undef KILN_VECTOR_LIBM_1
#undef KILN_VECTOR_LIBM_2
