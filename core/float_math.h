// Float32 exp, tanh and erf as straight-line arithmetic: the same operations,
// in the same order, with the same constants as the code generator emits
// (jit/llvm_exp_tanh.cpp, jit/llvm_erf.cpp, which read their constants from
// here), so the eager kernels and compiled kernels compute the same bits, and
// GCC vectorizes the eager loops (no calls, no branches; std::fma is one
// instruction where the target has FMA). tests/jit_codegen/vector_math_test.cpp
// checks every input it visits against the generated code, bit for bit, and the
// generated code against the correctly rounded values: exp within 1 ulp, tanh
// within 3, erf within 2, subnormal results included.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <type_traits>
#include <utility>

namespace kiln::fmath {

// Always inlined: a call left in an element loop keeps GCC from vectorizing it.
#define KILN_FMATH_INLINE [[gnu::always_inline]] inline

// ---- exp and tanh (derivation: jit/llvm_exp_tanh.cpp) ----------------------
// Highest degree first, for Horner's rule.
inline constexpr float kExp[] = {0.00138131296f, 0.00836942066f, 0.041668456f, 0.166665152f, 0.49999994f};
// ln2 split in two floats: n * kLn2Hi is exact inside the fma.
inline constexpr float kLn2Hi = 0.693147182f;
inline constexpr float kLn2Lo = -1.90465421e-09f;
// exp is +inf above 88.73 and 0 below -103.98: the clamp keeps n in [-159, 130].
inline constexpr float kExpHi = 90.0f, kExpLo = -110.0f;
inline constexpr float kTanhClamp = 9.1f;  // tanh rounds to 1 from 9.01
// Adding 1.5 * 2^23 (plus a bias) rounds to an integer left in the low mantissa bits.
inline constexpr float kRoundMagic = 12582912.0f;
inline constexpr float kLog2e = float(std::numbers::log2e);

// ---- erf (derivation: jit/llvm_erf.cpp) ------------------------------------
inline constexpr float kErfSmall[] = {5.87420509e-05f, -0.000727687497f, 0.00508466735f, -0.0267851967f,
                                      0.112815037f,    -0.376123935f,    0.128379136f};
inline constexpr float kErfLarge[] = {-0.00026244024f, 0.00279008574f, -0.00366063905f,
                                      -0.0380262993f,  -0.0697242469f, 0.999712646f};
inline constexpr float kErfSwitch = 1.3f;  // the small form below, the large one from here
inline constexpr float kErfClamp = 4.0f;   // erf rounds to 1 beyond

// Unrolled at compile time, for the same reason.
template <size_t N, size_t... I>
KILN_FMATH_INLINE float horner(float v, const float (&c)[N], std::index_sequence<I...>) {
  float p = c[0];
  ((p = std::fma(p, v, c[I + 1])), ...);
  return p;
}
template <size_t N>
KILN_FMATH_INLINE float horner(float v, const float (&c)[N]) {
  return horner(v, c, std::make_index_sequence<N - 1>{});
}

// e^x = 2^n (1 + s) for x reduced by n ln2; `rounded` holds n + bias in its low bits.
struct Reduced {
  float rounded, s;
};
KILN_FMATH_INLINE Reduced reduce(float x, int bias) {
  const float magic = kRoundMagic + float(bias);
  const float t = std::fma(x, kLog2e, magic);
  const float minus_n = magic - t;
  float r = std::fma(minus_n, kLn2Hi, x);
  r = std::fma(minus_n, kLn2Lo, r);
  return {t, std::fma(horner(r, kExp), r * r, r)};
}

KILN_FMATH_INLINE float exponent_field(uint32_t e) { return std::bit_cast<float>(e << 23); }

KILN_FMATH_INLINE float exp_f32(float x) {
  float xc = x > kExpHi ? kExpHi : x;  // NaN passes both
  xc = xc < kExpLo ? kExpLo : xc;
  const Reduced e = reduce(xc, 254);
  const uint32_t bits = std::bit_cast<uint32_t>(e.rounded);
  const uint32_t half = bits >> 1;  // 2^n as two factors, for subnormal results
  return std::fma(e.s, exponent_field(half), exponent_field(half)) * exponent_field(bits - half);
}

KILN_FMATH_INLINE float tanh_f32(float x) {
  float a = std::fabs(x);
  a = a > kTanhClamp ? kTanhClamp : a;
  const Reduced r = reduce(a + a, 127);
  const float scale = exponent_field(std::bit_cast<uint32_t>(r.rounded));
  const float e = std::fma(scale, r.s, scale - 1.0f);
  return std::copysign(e / (e + 2.0f), x);
}

KILN_FMATH_INLINE float erf_f32(float x) {
  const float a = std::fabs(x);
  const float small = std::fma(x, horner(x * x, kErfSmall), x);
  const float ac = a < kErfClamp ? a : kErfClamp;
  float q = horner(ac, kErfLarge);
  q = q * q;  // Q^8; the last square fused into 1 - Q^16
  q = q * q;
  q = q * q;
  const float large = std::copysign(std::fma(-q, q, 1.0f), x);
  return !(a >= kErfSwitch) ? small : large;  // NaN takes the small form, which returns it
}

// The eager kernels' exp, tanh and erf: the functions above for float (and
// the half types, which compute in float), libm for double.
template <class T>
KILN_FMATH_INLINE T exp_of(T x) {
  if constexpr (std::is_same_v<T, float>) return exp_f32(x);
  else return std::exp(x);
}
template <class T>
KILN_FMATH_INLINE T tanh_of(T x) {
  if constexpr (std::is_same_v<T, float>) return tanh_f32(x);
  else return std::tanh(x);
}
template <class T>
KILN_FMATH_INLINE T erf_of(T x) {
  if constexpr (std::is_same_v<T, float>) return erf_f32(x);
  else return std::erf(x);
}

#undef KILN_FMATH_INLINE

}  // namespace kiln::fmath
