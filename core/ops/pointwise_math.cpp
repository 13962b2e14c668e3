// PyTorch's everyday pointwise math beyond pointwise.cpp's arithmetic core:
// rounding, one-sided clamps, float classification, logical and bitwise ops,
// the libm functions, and PyTorch's other names for ops (aliases).
#include <bit>
#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include "core/ops/pointwise.h"

namespace kiln {
namespace ops {
namespace {

constexpr double kLn2 = std::numbers::ln2;
constexpr double kLn10 = std::numbers::ln10;
constexpr double kPi = std::numbers::pi;

// ---- rounding ---------------------------------------------------------------------------
// Integers are already whole: PyTorch copies them; bool has no kernel.
#define KILN_ROUNDING(Name, kname, fn)                 \
  struct Name {                                        \
    static constexpr Domain kDomain = Domain::NoBool;  \
    static constexpr const char* kName = kname;        \
    explicit Name(const Args&) {}                      \
    template <class T> T operator()(T x) const {       \
      if constexpr (kIsFloat<T>) return fn(x);         \
      else return x;                                   \
    }                                                  \
  };
KILN_ROUNDING(FloorF, "floor_vml_cpu", std::floor)
KILN_ROUNDING(CeilF, "ceil_vml_cpu", std::ceil)
KILN_ROUNDING(TruncF, "trunc_vml_cpu", std::trunc)
KILN_ROUNDING(RoundF, "round_vml_cpu", std::nearbyint)  // half to even (the default rounding mode)
#undef KILN_ROUNDING

// round(decimals=d): scaled by 10^|d| in the compute type, rounded half to
// even, scaled back; multiplied first for d > 0, divided first for d < 0.
struct RoundDecimalsF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "round_cpu";
  double scale;
  bool divide_first;
  explicit RoundDecimalsF(const Args& a)
      : scale(std::pow(10.0, double(std::abs(a[1].to_int())))), divide_first(a[1].to_int() < 0) {}
  template <class T> T operator()(T x) const {
    T s = T(scale);
    return divide_first ? T(std::nearbyint(x / s) * s) : T(std::nearbyint(x * s) / s);
  }
};
// decimals=0 takes round's kernel, which (unlike round without decimals) has
// no integer path.
void round_decimals_kernel(const Args& a, std::vector<Tensor>& outs) {
  DType ct = a[0].tensor().dtype();
  if (a[1].to_int() == 0 && !is_floating(ct)) not_implemented_for("round_vml_cpu", ct);
  run_functor(outs[0], std::array<Tensor, 1>{a[0].tensor()}, ct, RoundDecimalsF(a));
}

KILN_FLOAT_UNARY(FracF, "frac_cpu", x - std::trunc(x))
KILN_FLOAT_UNARY(RecipF, "reciprocal_cpu", T(1) / x)

// ---- one-sided clamps -----------------------------------------------------------------
// clamp_min(Tensor self, Scalar min) is max(x, min) with x first, so a nan
// input stays nan; a nan bound fills nan (PyTorch's clamp_min_out).
template <bool IsMin>
struct ClampBoundF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = IsMin ? "clamp_min_scalar_cpu" : "clamp_max_scalar_cpu";
  double d;
  int64_t i = 0;  // the exact bound when the Scalar is integral (only then is the compute type)
  explicit ClampBoundF(const Args& a) : d(a[1].to_double()) {
    if (!a[1].is_double()) i = a[1].to_int();
  }
  template <class T> T operator()(T x) const {
    if constexpr (kIsBool<T>) {
      return x;
    } else if constexpr (kIsFloat<T>) {
      if (d != d) return std::numeric_limits<T>::quiet_NaN();
      return IsMin ? std::max(x, T(d)) : std::min(x, T(d));
    } else {
      return IsMin ? std::max(x, T(i)) : std::min(x, T(i));
    }
  }
};
std::vector<DType> dtype_clamp_bound(const Args& a) { return {clamp_result_type(a)}; }

// ---- classification ---------------------------------------------------------------------
// The sign bit read through a signed integer: std::signbit's vectorised form
// (a V16SF shift) stops GCC 12 with an internal error under the dynamic cost model.
template <class T> bool float_sign_bit(T x) {
  using I = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
  return std::bit_cast<I>(x) < 0;
}
// Bool results; integers and bools are never nan or infinite.
#define KILN_FLOAT_CLASS(Name, float_expr, otherwise)  \
  struct Name {                                        \
    explicit Name(const Args&) {}                      \
    template <class T> bool operator()(T x) const {    \
      if constexpr (kIsFloat<T>) return float_expr;    \
      else return otherwise;                           \
    }                                                  \
  };
KILN_FLOAT_CLASS(IsNanF, x != x, false)
KILN_FLOAT_CLASS(IsInfF, std::isinf(x), false)
KILN_FLOAT_CLASS(IsPosInfF, x == std::numeric_limits<T>::infinity(), false)
KILN_FLOAT_CLASS(IsNegInfF, x == -std::numeric_limits<T>::infinity(), false)
KILN_FLOAT_CLASS(IsFiniteF, std::isfinite(x), true)
KILN_FLOAT_CLASS(SignbitF, float_sign_bit(x), x < T(0))  // -0.0 and -nan too; bool is never negative
#undef KILN_FLOAT_CLASS

// The largest finite value of a floating dtype (nan_to_num's default for inf).
double finite_max(DType d) {
  switch (d) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.38953138925153547590470800371487866880e38;
    case DType::Float32: return FLT_MAX;
    default: return DBL_MAX;
  }
}
std::optional<double> opt_float(const Value& v) { return v.is_none() ? std::nullopt : std::optional(v.to_double()); }

// nan_to_num(self, nan=0.0, posinf=None, neginf=None): the infinities default
// to self's dtype's extremes; integers and bools are copied.
struct NanToNumF {
  double nan, pos, neg;
  explicit NanToNumF(const Args& a)
      : nan(opt_float(a[1]).value_or(0.0)),
        pos(opt_float(a[2]).value_or(finite_max(a[0].tensor().dtype()))),
        neg(opt_float(a[3]).value_or(-finite_max(a[0].tensor().dtype()))) {}
  template <class T> T operator()(T x) const {
    if constexpr (kIsFloat<T>) {
      if (x != x) return T(nan);
      if (x == std::numeric_limits<T>::infinity()) return T(pos);
      if (x == -std::numeric_limits<T>::infinity()) return T(neg);
    }
    return x;
  }
};

// ---- logical and bitwise -----------------------------------------------------------------
// Logical ops compare the promoted values with zero (nan is true) and give bool.
template <class Op>
struct LogicalF {
  explicit LogicalF(const Args&) {}
  template <class T> bool operator()(T x, T y) const { return Op{}(x != T(0), y != T(0)); }
};

// Bitwise ops: integers and bool only.
#define KILN_BITWISE(Name, kname, op)                       \
  struct Name {                                             \
    static constexpr Domain kDomain = Domain::Integral;     \
    static constexpr const char* kName = kname;             \
    explicit Name(const Args&) {}                           \
    template <class T> T operator()(T x, T y) const {       \
      if constexpr (kIsFloat<T>) return x;                  \
      else return T(x op y);                                \
    }                                                       \
  };
KILN_BITWISE(BitAndF, "bitwise_and_cpu", &)
KILN_BITWISE(BitOrF, "bitwise_or_cpu", |)
KILN_BITWISE(BitXorF, "bitwise_xor_cpu", ^)
#undef KILN_BITWISE
// Shifts as PyTorch's CPU kernels: the left operand's bits, unsigned for <<; a count outside
// [0, bits) shifts everything out (>> of a negative value leaves -1).
template <bool Left>
struct ShiftF {
  static constexpr Domain kDomain = Domain::IntegralNoBool;
  static constexpr const char* kName = Left ? "lshift_cpu" : "rshift_cpu";
  explicit ShiftF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (!kIsInt<T>) {
      return x;  // not reached: the domain check refuses float and bool
    } else {
      constexpr int64_t kBits = int64_t(sizeof(T)) * 8;
      using U = std::make_unsigned_t<T>;
      const bool out_of_range = int64_t(y) < 0 || int64_t(y) >= kBits;
      if constexpr (Left) return out_of_range ? T(0) : T(U(x) << y);
      else return out_of_range ? T(x < 0 ? -1 : 0) : T(x >> y);
    }
  }
};
struct BitNotF {
  static constexpr Domain kDomain = Domain::Integral;
  static constexpr const char* kName = "bitwise_not_cpu";
  explicit BitNotF(const Args&) {}
  template <class T> T operator()(T x) const {
    if constexpr (kIsBool<T>) return !x;
    else if constexpr (kIsInt<T>) return T(~x);
    else return x;
  }
};

// logit(x, eps) = log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given and
// not negative (PyTorch's rule).
struct LogitF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "logit_cpu";
  double eps;
  explicit LogitF(const Args& a) : eps(opt_float(a[1]).value_or(-1.0)) {}
  template <class T> T operator()(T x) const {
    if (eps >= 0) {
      const T lo = T(eps), hi = T(1) - lo;
      x = x < lo ? lo : (x > hi ? hi : x);
    }
    return std::log(x / (T(1) - x));
  }
};

// ---- float functions ------------------------------------------------------------------------
KILN_FLOAT_UNARY(Expm1F, "expm1", std::expm1(x))
KILN_FLOAT_UNARY(Exp2F, "exp2", std::exp2(x))
KILN_FLOAT_UNARY(Log2F, "log2", std::log2(x))
KILN_FLOAT_UNARY(Log10F, "log10", std::log10(x))
KILN_FLOAT_UNARY(TanF, "tan", std::tan(x))
KILN_FLOAT_UNARY(AsinF, "asin", std::asin(x))
KILN_FLOAT_UNARY(AcosF, "acos", std::acos(x))
KILN_FLOAT_UNARY(AtanF, "atan", std::atan(x))
KILN_FLOAT_UNARY(SinhF, "sinh", std::sinh(x))
KILN_FLOAT_UNARY(CoshF, "cosh", std::cosh(x))
KILN_FLOAT_UNARY(AsinhF, "asinh", std::asinh(x))
KILN_FLOAT_UNARY(AcoshF, "acosh", std::acosh(x))
KILN_FLOAT_UNARY(AtanhF, "atanh", std::atanh(x))
KILN_FLOAT_UNARY(ErfcF, "erfc", std::erfc(x))

// erfinv has no libm function: a rational first guess (Giles-style central and
// tail ranges) refined by two Newton steps on erf, which leaves it accurate to
// the last bits of the type as PyTorch's calc_erfinv is.
template <class T> T erfinv_of(T y) {
  T a = std::abs(y);
  if (a > T(1)) return std::numeric_limits<T>::quiet_NaN();
  if (a == T(1)) return std::copysign(std::numeric_limits<T>::infinity(), y);
  T x;
  if (a <= T(0.7)) {
    T z = y * y;
    T num = ((T(-0.140543331) * z + T(0.914624893)) * z + T(-1.645349621)) * z + T(0.886226899);
    T den = (((T(0.012229801) * z + T(-0.329097515)) * z + T(1.442710462)) * z + T(-2.118377725)) * z + T(1);
    x = y * num / den;
  } else {
    T z = std::sqrt(-std::log((T(1) - a) / T(2)));
    T num = ((T(1.641345311) * z + T(3.429567803)) * z + T(-1.624906493)) * z + T(-1.970840454);
    T den = (T(1.637067800) * z + T(3.543889200)) * z + T(1);
    x = std::copysign(num, y) / den;
  }
  const T two_over_sqrt_pi = T(2 / std::sqrt(kPi));
  for (int k = 0; k < 2; ++k) x -= (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
  return x;
}
KILN_FLOAT_UNARY(ErfinvF, "erfinv", erfinv_of(x))

// sinc(x) = sin(pi x) / (pi x), 1 at 0.
template <class T> T sinc_of(T x) {
  if (x == T(0)) return T(1);
  const T p = T(kPi) * x;
  return std::sin(p) / p;
}
KILN_FLOAT_UNARY(SincF, "sinc", sinc_of(x))
// The reentrant lgamma: glibc's lgamma writes the sign to a global, a race
// between the pool's threads.
template <class T> T lgamma_of(T x) {
  int sign = 0;
  if constexpr (std::is_same_v<T, float>) return lgammaf_r(x, &sign);
  else return T(lgamma_r(double(x), &sign));
}
KILN_FLOAT_UNARY(LgammaF, "lgamma", lgamma_of(x))
// digamma and trigamma in double: the recurrences psi(x) = psi(x + 1) - 1/x
// and psi1(x) = psi1(x + 1) + 1/x^2 carry x to 10 or more, where the
// asymptotic series (coefficients from the Bernoulli numbers) are exact to
// double precision; negative x goes through the reflection formulas.
inline double digamma_double(double x) {
  if (x == 0) return std::copysign(INFINITY, -x);
  double result = 0;
  if (x < 0) {
    if (x == std::trunc(x)) return NAN;
    result = -kPi / std::tan(kPi * (x - std::trunc(x)));  // psi(x) = psi(1 - x) - pi / tan(pi x)
    x = 1 - x;
  }
  for (; x < 10; x += 1) result -= 1 / x;
  const double z = 1 / (x * x);
  const double series = z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z / 132))));
  return result + std::log(x) - 0.5 / x - series;
}
inline double trigamma_double(double x) {
  double result = 0, sign = 1;
  if (x < 0.5) {  // psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x)
    const double s = std::sin(kPi * x);
    result = kPi * kPi / (s * s);
    sign = -1;
    x = 1 - x;
  }
  double acc = 0;
  for (; x < 10; x += 1) acc += 1 / (x * x);
  const double z = 1 / (x * x);
  acc += 1 / x + z / 2 + z / x * (1.0 / 6 - z * (1.0 / 30 - z * (1.0 / 42 - z / 30)));
  return result + sign * acc;
}
KILN_FLOAT_UNARY(DigammaF, "digamma", T(digamma_double(double(x))))
// The Hurwitz zeta function zeta(s, q) = sum_k (q + k)^-s for an integer s >= 2, in
// double: the first terms summed until q + k is large, then the Euler-Maclaurin
// tail, whose Bernoulli-number corrections are exact to double precision there.
// A nonpositive integer q is a pole.
inline double hurwitz_zeta_double(int64_t s, double q) {
  if (q <= 0 && q == std::trunc(q)) return INFINITY;
  const double sd = double(s), start = 16 + 2 * sd;  // where the tail is accurate
  double sum = 0;
  for (; q < start; q += 1) sum += std::pow(q, -sd);
  sum += std::pow(q, 1 - sd) / (sd - 1) + 0.5 * std::pow(q, -sd);
  // B_2j / (2j)! for j = 1..7.
  static const double kB[] = {1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160,
                              -691.0 / 1307674368000, 1.0 / 74724249600};
  double rising = sd, power = std::pow(q, -sd - 1);  // s (s+1) ... (s+2j-2), q^(-s-2j+1)
  for (int j = 0; j < 7; ++j) {
    sum += kB[j] * rising * power;
    rising *= (sd + 2 * j + 1) * (sd + 2 * j + 2);
    power /= q * q;
  }
  return sum;
}
// polygamma(n, x): digamma, trigamma, and (-1)^(n+1) n! zeta(n + 1, x) beyond.
inline double polygamma_double(int64_t n, double x) {
  if (n == 0) return digamma_double(x);
  if (n == 1) return trigamma_double(x);
  const double sign = n % 2 ? 1.0 : -1.0;
  return sign * std::exp(std::lgamma(double(n) + 1)) * hurwitz_zeta_double(n + 1, x);
}
struct PolygammaF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "polygamma";
  int64_t n;
  explicit PolygammaF(const Args& a) : n(a[0].to_int()) {
    KILN_CHECK(n >= 0, Runtime, "polygamma(n, x) does not support negative n.");
  }
  template <class T> T operator()(T x) const { return T(polygamma_double(n, double(x))); }
};

// Binary float functions. Those under float promotion accept ints (as
// float32); the others keep the promoted dtype and reject ints by name.
#define KILN_FLOAT_BINARY(Name, name, expr)                        \
  struct Name {                                                    \
    static constexpr Domain kDomain = Domain::Floating;            \
    static constexpr const char* kName = name;                     \
    explicit Name(const Args&) {}                                  \
    template <class T> T operator()(T x, T y) const { return expr; } \
  };
KILN_FLOAT_BINARY(Atan2F, "atan2_cpu", std::atan2(x, y))
KILN_FLOAT_BINARY(CopysignF, "copysign_cpu", std::copysign(x, y))
KILN_FLOAT_BINARY(HypotF, "hypot_cpu", std::hypot(x, y))
// Equal infinities would give inf - inf; otherwise max + log1p(exp(-|x - y|)).
KILN_FLOAT_BINARY(LogAddExpF, "logaddexp_cpu",
                  (std::isinf(x) && x == y) ? x : T(std::max(x, y) + std::log1p(std::exp(-std::abs(x - y)))))
KILN_FLOAT_BINARY(LogAddExp2F, "logaddexp2_cpu",
                  (std::isinf(x) && x == y) ? x
                                            : T(std::max(x, y) + std::log1p(std::exp2(-std::abs(x - y))) * T(1 / kLn2)))
// x * log(y) with 0 * log(0) = 0, and nan wherever y is.
KILN_FLOAT_BINARY(XlogyF, "xlogy_cpu", y != y ? y : x == T(0) ? T(0) : T(x * std::log(y)))
#undef KILN_FLOAT_BINARY

struct FmodFastF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "float_fmod_cpu";
  explicit FmodFastF(const Args&) {}
  template <class T> [[gnu::always_inline]] T operator()(T x, T y) const { return fmod_fast(x, y); }
};

// fmod: C's remainder (the dividend's sign); integers divide exactly.
struct FmodF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "float_fmod_cpu";
  explicit FmodF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsFloat<T>) {
      return std::fmod(x, y);
    } else if constexpr (kIsInt<T>) {
      check_nonzero(y);
      return y == T(-1) ? T(0) : T(x % y);  // min % -1 would trap
    } else {
      return x;
    }
  }
};

// heaviside(input, values): values where input is 0, else input > 0.
struct HeavisideF {
  explicit HeavisideF(const Args&) {}
  template <class T> T operator()(T x, T v) const { return x == T(0) ? v : T(x > T(0)); }
};
std::vector<DType> dtype_heaviside(const Args& a) {
  KILN_CHECK(a[0].tensor().dtype() == a[1].tensor().dtype(), Runtime,
             "heaviside is not yet implemented for tensors with different dtypes.");
  return {a[0].tensor().dtype()};
}

// lerp: self + w * (end - self) for |w| < 0.5, else end - (end - self) * (1 - w).
template <class T> T lerp_of(T self, T end, T w) {
  return std::abs(w) < T(0.5) ? T(self + w * (end - self)) : T(end - (end - self) * (T(1) - w));
}
struct LerpTensorF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "lerp_kernel_tensor";
  template <class T> T operator()(T self, T end, T w) const { return lerp_of(self, end, w); }
};
struct LerpScalarF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "lerp_kernel_scalar";
  double w;
  template <class T> T operator()(T self, T end) const { return lerp_of(self, end, T(w)); }
};
// self and end share a dtype; so does a dimensioned weight (a 0-dim one or a
// Python number is taken in self's).
std::vector<DType> dtype_lerp(const Args& a) {
  DType self = a[0].tensor().dtype(), end = a[1].tensor().dtype();
  KILN_CHECK(self == end, Runtime, "expected dtype ", dtype_cpp_name(self), " for `end` but got dtype ",
             dtype_cpp_name(end));
  if (a[2].is_tensor() && a[2].tensor().dim() > 0)
    KILN_CHECK(a[2].tensor().dtype() == self, Runtime, "expected dtype ", dtype_cpp_name(self),
               " for `weight` but got dtype ", dtype_cpp_name(a[2].tensor().dtype()));
  return {self};
}
void lerp_kernel(const Args& a, std::vector<Tensor>& outs) {
  DType ct = dtype_lerp(a)[0];
  std::array<Tensor, 2> ends{a[0].tensor(), a[1].tensor()};
  if (!a[2].is_tensor()) return run_functor(outs[0], ends, ct, LerpScalarF{a[2].to_double()});
  const Tensor& w = a[2].tensor();
  if (is_wrapped(w)) return run_functor(outs[0], ends, ct, LerpScalarF{w.item_double()});
  run_functor(outs[0], std::array<Tensor, 3>{ends[0], ends[1], w}, ct, LerpTensorF{});
}

// addcmul / addcdiv: self + value * t1 * t2 (or / t2), in that order.
template <class T> T scaled(double value) {
  if constexpr (kIsFloat<T>) return T(value);
  else return T(int64_t(value));
}
struct AddcmulF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "addcmul_cpu_out";
  double value;
  explicit AddcmulF(const Args& a) : value(a[3].to_double()) {}
  template <class T> T operator()(T s, T x, T y) const {
    if constexpr (kIsInt<T>) return wrap_add(s, wrap_mul(wrap_mul(scaled<T>(value), x), y));
    else return T(s + scaled<T>(value) * x * y);
  }
};
struct AddcdivF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "addcdiv_cpu_out";
  double value;
  explicit AddcdivF(const Args& a) : value(a[3].to_double()) {}
  template <class T> T operator()(T s, T x, T y) const { return T(s + T(value) * x / y); }
};
std::vector<DType> dtype_addcdiv(const Args& a) {
  KILN_CHECK(!(is_integral(a[1].tensor().dtype(), true) && is_integral(a[2].tensor().dtype(), true)), Runtime,
             "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
             "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
             "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
             "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter "
             "implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  return dtype_promote(a);
}

// ---- composites --------------------------------------------------------------------------
// square is pow(x, 2) with an int exponent: bool and int inputs stay integral.
// fmax / fmin: maximum / minimum, except that a NaN loses to a number.
template <bool Max>
std::vector<Tensor> fmax_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  Tensor m = Max ? maximum(x, y) : minimum(x, y), x_nan = isnan(x);
  return {where(isnan(y), where(x_nan, m, x), where(x_nan, y, m))};
}
std::vector<Tensor> positive_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dtype() != DType::Bool, Runtime, "The `+` operator, on a bool tensor is not supported.");
  return {x};
}
std::vector<Tensor> square_composite(const Args& a) { return {invoke("pow.Tensor_Scalar", {a[0], int64_t(2)})}; }
std::vector<Tensor> square_inplace_composite(const Args& a) {
  invoke("pow_.Scalar", {a[0], int64_t(2)});
  return {a[0].tensor()};
}
// deg2rad and rad2deg multiply by a Python number: int and bool give float32.
template <double Factor> std::vector<Tensor> scale_composite(const Args& a) { return {mul(a[0].tensor(), Factor)}; }
template <double Factor> std::vector<Tensor> scale_inplace_composite(const Args& a) {
  invoke("mul_", {a[0], Factor});
  return {a[0].tensor()};
}
constexpr double kDegToRad = kPi / 180, kRadToDeg = 180 / kPi;
// float_power: pow in float64, whatever the inputs.
std::vector<Tensor> float_power_composite(const Args& a) {
  return {pow(to_dtype(a[0].tensor(), DType::Float64), to_dtype(a[1].tensor(), DType::Float64))};
}
std::vector<Tensor> float_power_inplace_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dtype() == DType::Float64, Runtime, "the base given to float_power_ has dtype ",
             dtype_legacy_name(self.dtype()), " but the operation's result requires dtype Double");
  invoke("pow_.Tensor", {self, to_dtype(a[1].tensor(), DType::Float64)});
  return {self};
}
// true_divide is div without a rounding mode.
std::vector<Tensor> true_divide_composite(const Args& a) { return {div(a[0].tensor(), a[1].tensor())}; }
// rsub(self, other, alpha) = other - alpha * self: Python's `2 - x` (RsubBackward1).
std::vector<Tensor> rsub_composite(const Args& a) {
  return {as_node(invoke("sub", {a[1], a[0], a[2]}), "RsubBackward1")};
}
// angle(Tensor self) of a real tensor: pi below zero, else 0, NaN kept; ints give floats.
std::vector<Tensor> angle_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const DType d = is_floating(x.dtype()) ? x.dtype() : DType::Float32;
  Tensor pi = scalar_tensor(M_PI, DType::Float64, true), zero = scalar_tensor(0, DType::Float64, true);
  Tensor arg = to_dtype(where(lt(x, zero), pi, zero), d);
  return {is_floating(d) ? where(isnan(x), to_dtype(x, d), arg) : arg};
}
std::vector<Tensor> true_divide_inplace_composite(const Args& a) {
  invoke("div_", {a[0], a[1]});
  return {a[0].tensor()};
}

// ---- derivatives ---------------------------------------------------------------------------
std::vector<Tensor> grad_zero(const GradCtx& c) { return {zeros_like(c.grad())}; }
std::vector<Tensor> grad_identity(const GradCtx& c) { return {c.grad()}; }
std::vector<Tensor> grad_reciprocal(const GradCtx& c) { return {neg(mul(c.grad(), mul(c.out(), c.out())))}; }

template <bool IsMin> std::vector<Tensor> grad_clamp_bound(const GradCtx& c) {
  Tensor b = wrap_scalar(c.args[1]);
  return {grad_if(IsMin ? ge(c.in(0), b) : le(c.in(0), b), c.grad())};
}
// The bound takes the gradient where it was selected.
template <bool IsMin> std::vector<Tensor> grad_clamp_bound_tensor(const GradCtx& c) {
  const Tensor &x = c.in(0), &b = c.in(1);
  return {c.need(0) ? grad_if(IsMin ? ge(x, b) : le(x, b), c.grad()) : Tensor(),
          c.need(1) ? grad_if(IsMin ? lt(x, b) : gt(x, b), c.grad()) : Tensor()};
}
std::vector<Tensor> grad_nan_to_num(const GradCtx& c) { return {mul(c.grad(), isfinite(c.in(0)))}; }

// d/dx logit = 1 / (x (1 - x)); outside [eps, 1 - eps] the clamp makes it 0, and without
// eps, outside [0, 1] it is NaN.
std::vector<Tensor> grad_logit(const GradCtx& c) {
  const Tensor& x = c.in(0);
  Tensor dx = div(c.grad(), mul(x, add(neg(x), 1.0)));
  std::optional<double> eps = opt_float(c.args[1]);
  const bool clamped = eps && *eps >= 0;
  const double lo = clamped ? *eps : 0.0, hi = 1.0 - lo;
  Tensor outside = logical_or(lt(x, scalar_tensor(lo, x.dtype(), true)), gt(x, scalar_tensor(hi, x.dtype(), true)));
  return {where(outside, scalar_tensor(clamped ? 0.0 : NAN, dx.dtype(), true), dx)};
}
std::vector<Tensor> grad_expm1(const GradCtx& c) { return {mul(c.grad(), add(c.out(), 1.0))}; }
std::vector<Tensor> grad_exp2(const GradCtx& c) { return {mul(mul(c.grad(), c.out()), kLn2)}; }
std::vector<Tensor> grad_log2(const GradCtx& c) { return {div(c.grad(), mul(c.in(0), kLn2))}; }
std::vector<Tensor> grad_log10(const GradCtx& c) { return {div(c.grad(), mul(c.in(0), kLn10))}; }
std::vector<Tensor> grad_tan(const GradCtx& c) { return {mul(c.grad(), add(mul(c.out(), c.out()), 1.0))}; }
// 1 - x^2 and x^2 + s (s = 1 or -1), the radicands of the inverse functions' derivatives.
Tensor one_minus_square(const Tensor& x) { return add(neg(mul(x, x)), 1.0); }
Tensor square_plus(const Tensor& x, double s) { return add(mul(x, x), s); }
std::vector<Tensor> grad_asin(const GradCtx& c) { return {mul(c.grad(), rsqrt(one_minus_square(c.in(0))))}; }
std::vector<Tensor> grad_acos(const GradCtx& c) { return {neg(mul(c.grad(), rsqrt(one_minus_square(c.in(0)))))}; }
std::vector<Tensor> grad_atan(const GradCtx& c) { return {div(c.grad(), square_plus(c.in(0), 1))}; }
std::vector<Tensor> grad_sinh(const GradCtx& c) { return {mul(c.grad(), cosh(c.in(0)))}; }
std::vector<Tensor> grad_cosh(const GradCtx& c) { return {mul(c.grad(), sinh(c.in(0)))}; }
std::vector<Tensor> grad_asinh(const GradCtx& c) { return {mul(c.grad(), rsqrt(square_plus(c.in(0), 1)))}; }
std::vector<Tensor> grad_acosh(const GradCtx& c) { return {mul(c.grad(), rsqrt(square_plus(c.in(0), -1)))}; }
std::vector<Tensor> grad_atanh(const GradCtx& c) { return {div(c.grad(), one_minus_square(c.in(0)))}; }
std::vector<Tensor> grad_erfc(const GradCtx& c) {
  const Tensor& x = c.in(0);
  return {mul(c.grad(), mul(exp(neg(mul(x, x))), -2 / std::sqrt(kPi)))};
}
// polygamma(int n, Tensor self): the tensor is the second argument.
std::vector<Shape> shape_polygamma(const Args& a) { return {a[1].tensor().sizes()}; }
void polygamma_kernel(const Args& a, std::vector<Tensor>& outs) {
  run_functor(outs[0], std::array<Tensor, 1>{a[1].tensor()}, dtype_promote_float(a)[0], PolygammaF(a));
}
// d/dx sinc = (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at 0.
std::vector<Tensor> grad_sinc(const GradCtx& c) {
  const Tensor& x = c.in(0);
  Tensor px = mul(x, kPi);
  Tensor d = div(sub(mul(px, cos(px)), sin(px)), mul(px, x));
  return {mul(c.grad(), where(eq(x, scalar_tensor(0, x.dtype(), true)), scalar_tensor(0, d.dtype(), true), d))};
}
std::vector<Tensor> grad_lgamma(const GradCtx& c) { return {mul(c.grad(), invoke("digamma", {c.in(0)}))}; }
std::vector<Tensor> grad_digamma(const GradCtx& c) {
  return {mul(c.grad(), invoke("polygamma", {int64_t(1), c.in(0)}))};
}
std::vector<Tensor> grad_polygamma(const GradCtx& c) {
  return {mul(c.grad(), invoke("polygamma", {c.args[0].to_int() + 1, c.in(1)}))};
}
std::vector<Tensor> grad_erfinv(const GradCtx& c) {
  const Tensor& r = c.out();
  return {mul(c.grad(), mul(exp(mul(r, r)), std::sqrt(kPi) / 2))};
}

std::vector<Tensor> grad_atan2(const GradCtx& c) {
  const Tensor &y = c.in(0), &x = c.in(1);
  Tensor r2 = add(mul(y, y), mul(x, x));
  return {c.need(0) ? div(mul(c.grad(), x), r2) : Tensor(), c.need(1) ? div(mul(c.grad(), neg(y)), r2) : Tensor()};
}
std::vector<Tensor> grad_hypot(const GradCtx& c) {
  return {c.need(0) ? mul(c.grad(), div(c.in(0), c.out())) : Tensor(),
          c.need(1) ? mul(c.grad(), div(c.in(1), c.out())) : Tensor()};
}
// d/dx log(e^x + e^y) = 1 / (1 + e^(y - x)); base 2 likewise with 2^(y - x).
template <Tensor (*Exp)(const Tensor&)> std::vector<Tensor> grad_logaddexp(const GradCtx& c) {
  const Tensor &x = c.in(0), &y = c.in(1);
  return {c.need(0) ? div(c.grad(), add(Exp(sub(y, x)), 1.0)) : Tensor(),
          c.need(1) ? div(c.grad(), add(Exp(sub(x, y)), 1.0)) : Tensor()};
}
std::vector<Tensor> grad_xlogy(const GradCtx& c) {
  const Tensor &x = c.in(0), &y = c.in(1);
  Tensor gx, gy;
  if (c.need(0)) gx = grad_unless(logical_and(eq(x, num(0)), le(y, num(0))), xlogy(c.grad(), y));
  if (c.need(1)) gy = div(mul(c.grad(), x), y);
  return {gx, gy};
}
std::vector<Tensor> grad_fmod(const GradCtx& c) {
  return {c.grad(), c.need(1) ? neg(mul(c.grad(), invoke("div", {c.in(0), c.in(1), "trunc"}))) : Tensor()};
}
// copysign: the sign flip result / self where self is nonzero; no gradient to other.
std::vector<Tensor> grad_copysign(const GradCtx& c) {
  const Tensor& x = c.in(0);
  return {c.need(0) ? grad_unless(eq(x, num(0)), mul(c.grad(), div(c.out(), x))) : Tensor(),
          c.need(1) ? zeros_like(c.in(1)) : Tensor()};  // other is saved for its shape
}
std::vector<Tensor> grad_lerp(const GradCtx& c) {
  const Tensor &x = c.in(0), &e = c.in(1), &g = c.grad();
  Tensor w = c.args[2].is_tensor() ? c.args[2].tensor() : num(c.args[2].to_double());
  std::vector<Tensor> r{c.need(0) ? mul(g, add(neg(w), 1.0)) : Tensor(), c.need(1) ? mul(g, w) : Tensor()};
  if (c.args[2].is_tensor()) r.push_back(c.need(2) ? mul(g, sub(e, x)) : Tensor());
  return r;
}
std::vector<Tensor> grad_addcmul(const GradCtx& c) {
  double v = c.args[3].to_double();
  return {c.grad(), c.need(1) ? mul(mul(c.grad(), c.in(2)), v) : Tensor(),
          c.need(2) ? mul(mul(c.grad(), c.in(1)), v) : Tensor()};
}
std::vector<Tensor> grad_addcdiv(const GradCtx& c) {
  double v = c.args[3].to_double();
  const Tensor &t1 = c.in(1), &t2 = c.in(2);
  return {c.grad(), c.need(1) ? div(mul(c.grad(), v), t2) : Tensor(),
          c.need(2) ? neg(div(mul(mul(c.grad(), v), t1), mul(t2, t2))) : Tensor()};
}

// ---- lowerings (core/lowering.h) -------------------------------------------------------------
// floor/ceil/trunc/round: Floor..Round leave integers as they are.
template <KOp O> bool lower_rounding(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t) || t == DType::Bool) return false;
  L.set_out(0, L.b.unary(O, L.tensor(0, t)));
  return true;
}
bool lower_round_decimals(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t)) return false;
  RoundDecimalsF f(L.args);
  ExprId x = L.tensor(0, t), s = kconst(L, double(f.scale), t);
  if (f.divide_first) {
    L.set_out(0, L.b.binary(KOp::Mul, L.b.unary(KOp::Round, L.b.binary(KOp::Div, x, s)), s));
  } else {
    L.set_out(0, L.b.binary(KOp::Div, L.b.unary(KOp::Round, L.b.binary(KOp::Mul, x, s)), s));
  }
  return true;
}
ExprId frac_of(Lowering& L, ExprId x, DType) { return L.b.binary(KOp::Sub, x, L.b.unary(KOp::Trunc, x)); }

// A Scalar bound on a float tensor of its own dtype: nan fills, else x first.
template <bool IsMin> bool lower_clamp_bound(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t) || L.args[0].tensor().dtype() != t) return false;
  ExprId x = L.tensor(0, t), b = L.scalar(1, t);
  ExprId past = IsMin ? L.b.compare(KOp::Lt, x, b) : L.b.compare(KOp::Lt, b, x);
  L.set_out(0, L.b.select(L.b.unary(KOp::IsNan, b), b, L.b.select(past, b, x)));
  return true;
}

// Classification of float inputs (the others fall back to the eager kernel).
ExprId inf_const(Lowering& L, DType t, double sign) {
  return kconst(L, sign * std::numeric_limits<double>::infinity(), t);
}
ExprId isnan_of(Lowering& L, ExprId x, DType) { return L.b.unary(KOp::IsNan, x); }
ExprId isinf_of(Lowering& L, ExprId x, DType t) { return L.b.compare(KOp::Eq, L.b.unary(KOp::Abs, x), inf_const(L, t, 1)); }
ExprId isfinite_of(Lowering& L, ExprId x, DType t) {
  return L.b.compare(KOp::Lt, L.b.unary(KOp::Abs, x), inf_const(L, t, 1));  // false for nan
}
ExprId isposinf_of(Lowering& L, ExprId x, DType t) { return L.b.compare(KOp::Eq, x, inf_const(L, t, 1)); }
ExprId isneginf_of(Lowering& L, ExprId x, DType t) { return L.b.compare(KOp::Eq, x, inf_const(L, t, -1)); }
template <ExprId (*F)(Lowering&, ExprId, DType)> bool lower_float_class(Lowering& L) {
  DType t = L.args[0].tensor().dtype();
  if (!kir::lowerable_float(t)) return false;
  L.set_out(0, F(L, L.tensor(0, t), t));
  return true;
}
// The replacement as the kernel holds it: converted to the compute type.
ExprId replacement(Lowering& L, double v, DType t) { return kconst(L, t == DType::Float32 ? double(float(v)) : v, t); }
bool lower_nan_to_num(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t)) return false;
  NanToNumF f(L.args);
  ExprId x = L.tensor(0, t);
  ExprId r = L.b.select(L.b.compare(KOp::Eq, x, inf_const(L, t, -1)), replacement(L, f.neg, t), x);
  r = L.b.select(L.b.compare(KOp::Eq, x, inf_const(L, t, 1)), replacement(L, f.pos, t), r);
  L.set_out(0, L.b.select(L.b.unary(KOp::IsNan, x), replacement(L, f.nan, t), r));
  return true;
}

// Logical ops: each side compared with zero in the promoted type.
template <KOp O> bool lower_logical(Lowering& L) {
  DType ct = promoted(L);
  if (!kir::lowerable_type(ct)) return false;
  auto truth = [&](int i) {
    ExprId v = L.tensor(i, ct);
    return ct == DType::Bool ? v : L.b.compare(KOp::Ne, v, kconst(L, 0, ct));
  };
  ExprId x = truth(0), y = truth(1);
  L.set_out(0, O == KOp::Ne ? L.b.compare(KOp::Ne, x, y) : L.b.binary(O, x, y));
  return true;
}
// Bitwise ops lower on bool (the kernel IR has no integer bit operations).
template <KOp O> bool lower_bitwise(Lowering& L) {
  if (promoted(L) != DType::Bool) return false;
  return lower_logical<O>(L);
}
// ~x is -1 - x for integers (never overflows), not for bool.
bool lower_bitwise_not(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t)) return false;
  ExprId x = L.tensor(0, t);
  L.set_out(0, t == DType::Bool ? L.b.unary(KOp::Not, x) : L.b.binary(KOp::Sub, kconst(L, -1, t), x));
  return true;
}
bool lower_signbit(Lowering& L) {
  DType t = L.args[0].tensor().dtype();
  if (t != DType::Int64 && t != DType::Int32) return false;  // float: -0.0 and -nan need the sign bit
  L.set_out(0, L.b.compare(KOp::Lt, L.tensor(0, t), kconst(L, 0, t)));
  return true;
}

// exp2, log2, log10 through exp and log.
ExprId exp2_of(Lowering& L, ExprId x, DType t) { return L.b.unary(KOp::Exp, L.b.binary(KOp::Mul, x, kconst(L, kLn2, t))); }
template <double InvLn> ExprId log_base_of(Lowering& L, ExprId x, DType t) {
  return L.b.binary(KOp::Mul, L.b.unary(KOp::Log, x), kconst(L, InvLn, t));
}
constexpr double kInvLn2 = 1 / kLn2, kInvLn10 = 1 / kLn10;

// Binary float formulas of two promoted inputs.
template <ExprId (*F)(Lowering&, ExprId, ExprId, DType), std::vector<DType> (*DT)(const Args&)>
bool lower_float_binary(Lowering& L) {
  DType t = DT(L.args)[0];
  if (!kir::lowerable_float(t)) return false;
  L.set_out(0, F(L, L.tensor(0, t), L.tensor(1, t), t));
  return true;
}
// LogAddExpF's formula; `exp` is e^x or 2^x, `scale` 1 or 1/ln 2.
template <ExprId (*Exp)(Lowering&, ExprId, DType), double Scale>
ExprId logaddexp_of(Lowering& L, ExprId x, ExprId y, DType t) {
  ExprId d = L.b.unary(KOp::Neg, L.b.unary(KOp::Abs, L.b.binary(KOp::Sub, x, y)));
  ExprId tail = L.b.unary(KOp::Log1p, Exp(L, d, t));
  if constexpr (Scale != 1) tail = L.b.binary(KOp::Mul, tail, kconst(L, Scale, t));
  ExprId m = L.b.select(L.b.compare(KOp::Lt, x, y), y, x);  // std::max(x, y)
  ExprId same_inf = L.b.binary(KOp::And, isinf_of(L, x, t), L.b.compare(KOp::Eq, x, y));
  return L.b.select(same_inf, x, L.b.binary(KOp::Add, m, tail));
}
ExprId xlogy_of(Lowering& L, ExprId x, ExprId y, DType t) {
  ExprId zero = kconst(L, 0, t);
  ExprId r = L.b.select(L.b.compare(KOp::Eq, x, zero), zero, L.b.binary(KOp::Mul, x, L.b.unary(KOp::Log, y)));
  return L.b.select(L.b.unary(KOp::IsNan, y), y, r);
}
bool lower_heaviside(Lowering& L) {
  DType t = dtype_heaviside(L.args)[0];
  if (!kir::lowerable_type(t)) return false;
  ExprId x = L.tensor(0, t), zero = kconst(L, 0, t);
  ExprId pos = L.b.cast(L.b.compare(KOp::Gt, x, zero), t);
  L.set_out(0, L.b.select(L.b.compare(KOp::Eq, x, zero), L.tensor(1, t), pos));
  return true;
}
bool lower_lerp(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t)) return false;
  ExprId x = L.tensor(0, t), e = L.tensor(1, t);
  ExprId w = L.args[2].is_tensor() ? L.tensor(2, t) : L.scalar(2, t);
  ExprId diff = L.b.binary(KOp::Sub, e, x);
  ExprId small = L.b.binary(KOp::Add, x, L.b.binary(KOp::Mul, w, diff));
  ExprId large = L.b.binary(KOp::Sub, e, L.b.binary(KOp::Mul, diff, L.b.binary(KOp::Sub, kconst(L, 1, t), w)));
  L.set_out(0, L.b.select(L.b.compare(KOp::Lt, L.b.unary(KOp::Abs, w), kconst(L, 0.5, t)), small, large));
  return true;
}
template <KOp O> bool lower_addc(Lowering& L) {
  DType t = promoted(L);
  if (!kir::lowerable_float(t)) return false;
  ExprId scaled_t1 = L.b.binary(KOp::Mul, L.scalar(3, t), L.tensor(1, t));
  L.set_out(0, L.b.binary(KOp::Add, L.tensor(0, t), L.b.binary(O, scaled_t1, L.tensor(2, t))));
  return true;
}

// PyTorch's other name for an op with the same arguments: the same entry
// under the alias's schema.
void add_alias(OpTable& t, const char* schema, const char* of) {
  OpDef d = t.get(of);
  d.schema_text = schema;
  t.add(std::move(d));
}

}  // namespace
}  // namespace ops

void register_pointwise_math_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind P = OpKind::Pointwise, C = OpKind::Composite;
  constexpr auto B = shape_broadcast_args;
  constexpr auto S = shape_like_self;
  constexpr auto F = dtype_promote_float;
  constexpr auto Self = dtype_like_self;

  // Rounding: no gradient anywhere.
  t.add({.schema_text = "floor(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = Self,
         .kernel = pointwise_kernel<FloorF, 1, Self>, .grad = grad_zero, .lower = lower_rounding<KOp::Floor>});
  t.add({.schema_text = "ceil(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = Self,
         .kernel = pointwise_kernel<CeilF, 1, Self>, .grad = grad_zero, .lower = lower_rounding<KOp::Ceil>});
  t.add({.schema_text = "trunc(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = Self,
         .kernel = pointwise_kernel<TruncF, 1, Self>, .grad = grad_zero, .lower = lower_rounding<KOp::Trunc>});
  t.add({.schema_text = "round(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = Self,
         .kernel = pointwise_kernel<RoundF, 1, Self>, .grad = grad_zero, .lower = lower_rounding<KOp::Round>});
  t.add({.schema_text = "round.decimals(Tensor self, *, int decimals) -> Tensor", .kind = P, .shape = S,
         .dtype = Self, .kernel = round_decimals_kernel, .grad = grad_zero, .lower = lower_round_decimals});
  add_alias(t, "fix(Tensor self) -> Tensor", "trunc");
  t.add({.schema_text = "frac(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = Self,
         .kernel = pointwise_kernel<FracF, 1, Self>, .grad = grad_identity, .lower = lower_float_unary<frac_of>});
  t.add({.schema_text = "reciprocal(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<RecipF, 1, F>, .grad = grad_reciprocal, .saves = save_out(0),
         .lower = lower_float_unary<recip_of>});
  t.add({.schema_text = "square(Tensor self) -> Tensor", .kind = C, .composite = square_composite});
  t.add({.schema_text = "fmax(Tensor self, Tensor other) -> Tensor", .kind = C, .composite = fmax_composite<true>});
  t.add({.schema_text = "fmin(Tensor self, Tensor other) -> Tensor", .kind = C, .composite = fmax_composite<false>});
  t.add({.schema_text = "positive(Tensor self) -> Tensor", .kind = C, .composite = positive_composite});
  t.add({.schema_text = "square_(Tensor self) -> Tensor", .kind = C, .composite = square_inplace_composite});

  // One-sided clamps; Tensor bounds first (see clamp.Tensor in pointwise.cpp).
  t.add({.schema_text = "clamp_min.Tensor(Tensor self, Tensor min) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_promote, .kernel = pointwise_kernel<MaximumF, 2, dtype_promote>,
         .grad = grad_clamp_bound_tensor<true>, .saves = save_in(0) | save_in(1), .lower = lower_extremum<KOp::Gt>});
  t.add({.schema_text = "clamp_min(Tensor self, Scalar min) -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_clamp_bound, .kernel = pointwise_kernel<ClampBoundF<true>, 1, dtype_clamp_bound>,
         .grad = grad_clamp_bound<true>, .saves = save_in(0), .lower = lower_clamp_bound<true>});
  t.add({.schema_text = "clamp_max.Tensor(Tensor self, Tensor max) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_promote, .kernel = pointwise_kernel<MinimumF, 2, dtype_promote>,
         .grad = grad_clamp_bound_tensor<false>, .saves = save_in(0) | save_in(1), .lower = lower_extremum<KOp::Lt>});
  t.add({.schema_text = "clamp_max(Tensor self, Scalar max) -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_clamp_bound, .kernel = pointwise_kernel<ClampBoundF<false>, 1, dtype_clamp_bound>,
         .grad = grad_clamp_bound<false>, .saves = save_in(0), .lower = lower_clamp_bound<false>});

  // Classification: bool out, no gradient.
  constexpr auto BoolOut = dtype_bool;
  t.add({.schema_text = "isnan(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = BoolOut,
         .kernel = pointwise_kernel<IsNanF, 1, Self>, .lower = lower_float_class<isnan_of>});
  t.add({.schema_text = "isinf(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = BoolOut,
         .kernel = pointwise_kernel<IsInfF, 1, Self>, .lower = lower_float_class<isinf_of>});
  t.add({.schema_text = "isposinf(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = BoolOut,
         .kernel = pointwise_kernel<IsPosInfF, 1, Self>, .lower = lower_float_class<isposinf_of>});
  t.add({.schema_text = "isneginf(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = BoolOut,
         .kernel = pointwise_kernel<IsNegInfF, 1, Self>, .lower = lower_float_class<isneginf_of>});
  t.add({.schema_text = "isfinite(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = BoolOut,
         .kernel = pointwise_kernel<IsFiniteF, 1, Self>, .lower = lower_float_class<isfinite_of>});
  t.add({.schema_text = "signbit(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = BoolOut,
         .kernel = pointwise_kernel<SignbitF, 1, Self>, .lower = lower_signbit});
  t.add({.schema_text = "nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor",
         .kind = P, .shape = S, .dtype = Self, .kernel = pointwise_kernel<NanToNumF, 1, Self>,
         .grad = grad_nan_to_num, .saves = save_in(0), .lower = lower_nan_to_num});

  // Logical and bitwise.
  t.add({.schema_text = "logical_and(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = BoolOut,
         .kernel = pointwise_kernel<LogicalF<std::logical_and<>>, 2, dtype_promote>, .lower = lower_logical<KOp::And>});
  t.add({.schema_text = "logical_or(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = BoolOut,
         .kernel = pointwise_kernel<LogicalF<std::logical_or<>>, 2, dtype_promote>, .lower = lower_logical<KOp::Or>});
  t.add({.schema_text = "logical_xor(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = BoolOut,
         .kernel = pointwise_kernel<LogicalF<std::not_equal_to<>>, 2, dtype_promote>, .lower = lower_logical<KOp::Ne>});
  t.add({.schema_text = "bitwise_and(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_in_domain<BitAndF, dtype_promote>,
         .kernel = pointwise_kernel<BitAndF, 2, dtype_promote>, .lower = lower_bitwise<KOp::And>});
  t.add({.schema_text = "bitwise_or(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_in_domain<BitOrF, dtype_promote>,
         .kernel = pointwise_kernel<BitOrF, 2, dtype_promote>, .lower = lower_bitwise<KOp::Or>});
  t.add({.schema_text = "bitwise_xor(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_in_domain<BitXorF, dtype_promote>,
         .kernel = pointwise_kernel<BitXorF, 2, dtype_promote>, .lower = lower_bitwise<KOp::Ne>});
  t.add({.schema_text = "bitwise_left_shift(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_in_domain<ShiftF<true>, dtype_promote>,
         .kernel = pointwise_kernel<ShiftF<true>, 2, dtype_promote>});
  t.add({.schema_text = "bitwise_right_shift(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_in_domain<ShiftF<false>, dtype_promote>,
         .kernel = pointwise_kernel<ShiftF<false>, 2, dtype_promote>});
  t.add({.schema_text = "bitwise_not(Tensor self) -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_in_domain<BitNotF, Self>,
         .kernel = pointwise_kernel<BitNotF, 1, Self>, .lower = lower_bitwise_not});

  // Float functions of one input: int and bool promote to float32.
#define KILN_UNARY(name, Fn, G, Saved, Lower)                                                 \
  t.add({.schema_text = name "(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,      \
         .kernel = pointwise_kernel<Fn, 1, F>, .grad = G, .saves = Saved, .lower = Lower});
  KILN_UNARY("expm1", Expm1F, grad_expm1, save_out(0), nullptr)
  KILN_UNARY("exp2", Exp2F, grad_exp2, save_out(0), lower_float_unary<exp2_of>)
  KILN_UNARY("log2", Log2F, grad_log2, save_in(0), lower_float_unary<log_base_of<kInvLn2>>)
  KILN_UNARY("log10", Log10F, grad_log10, save_in(0), lower_float_unary<log_base_of<kInvLn10>>)
  KILN_UNARY("tan", TanF, grad_tan, save_out(0), nullptr)
  KILN_UNARY("asin", AsinF, grad_asin, save_in(0), nullptr)
  KILN_UNARY("acos", AcosF, grad_acos, save_in(0), nullptr)
  KILN_UNARY("atan", AtanF, grad_atan, save_in(0), nullptr)
  KILN_UNARY("sinh", SinhF, grad_sinh, save_in(0), nullptr)
  KILN_UNARY("cosh", CoshF, grad_cosh, save_in(0), nullptr)
  KILN_UNARY("asinh", AsinhF, grad_asinh, save_in(0), nullptr)
  KILN_UNARY("acosh", AcoshF, grad_acosh, save_in(0), nullptr)
  KILN_UNARY("atanh", AtanhF, grad_atanh, save_in(0), nullptr)
  KILN_UNARY("erfc", ErfcF, grad_erfc, save_in(0), nullptr)
  KILN_UNARY("erfinv", ErfinvF, grad_erfinv, save_out(0), nullptr)
  KILN_UNARY("sinc", SincF, grad_sinc, save_in(0), nullptr)
  KILN_UNARY("lgamma", LgammaF, grad_lgamma, save_in(0), nullptr)
  KILN_UNARY("digamma", DigammaF, grad_digamma, save_in(0), nullptr)
  t.add({.schema_text = "polygamma(int n, Tensor self) -> Tensor", .kind = OpKind::Extern, .shape = shape_polygamma,
         .dtype = F, .kernel = polygamma_kernel, .grad = grad_polygamma, .saves = save_in(1)});
#undef KILN_UNARY
  t.add({.schema_text = "logit(Tensor self, float? eps=None) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<LogitF, 1, F>, .grad = grad_logit, .saves = save_in(0)});
  t.add({.schema_text = "deg2rad(Tensor self) -> Tensor", .kind = C, .composite = scale_composite<kDegToRad>});
  t.add({.schema_text = "deg2rad_(Tensor self) -> Tensor", .kind = C, .composite = scale_inplace_composite<kDegToRad>});
  t.add({.schema_text = "rad2deg(Tensor self) -> Tensor", .kind = C, .composite = scale_composite<kRadToDeg>});
  t.add({.schema_text = "rad2deg_(Tensor self) -> Tensor", .kind = C, .composite = scale_inplace_composite<kRadToDeg>});

  // Float functions of two inputs.
  constexpr auto Pr = dtype_promote;
  constexpr uint32_t both = save_in(0) | save_in(1);
  t.add({.schema_text = "atan2(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = F,
         .kernel = pointwise_kernel<Atan2F, 2, F>, .grad = grad_atan2, .saves = both});
  t.add({.schema_text = "hypot(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = Pr,
         .kernel = pointwise_kernel<HypotF, 2, Pr>, .grad = grad_hypot, .saves = both | save_out(0)});
  t.add({.schema_text = "logaddexp(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = Pr,
         .kernel = pointwise_kernel<LogAddExpF, 2, Pr>, .grad = grad_logaddexp<kiln::exp>, .saves = both,
         .lower = lower_float_binary<logaddexp_of<apply<KOp::Exp>, 1.0>, Pr>});
  t.add({.schema_text = "logaddexp2(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = Pr,
         .kernel = pointwise_kernel<LogAddExp2F, 2, Pr>, .grad = grad_logaddexp<kiln::exp2>, .saves = both,
         .lower = lower_float_binary<logaddexp_of<exp2_of, kInvLn2>, Pr>});
  t.add({.schema_text = "xlogy(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = F,
         .kernel = pointwise_kernel<XlogyF, 2, F>, .grad = grad_xlogy, .saves = both,
         .lower = lower_float_binary<xlogy_of, F>});
  t.add({.schema_text = "copysign(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = F,
         .kernel = pointwise_kernel<CopysignF, 2, F>, .grad = grad_copysign, .saves = both | save_out(0)});
  t.add({.schema_text = "fmod(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B, .dtype = Pr,
         .kernel = two_pass_kernel<FmodFastF, FmodF>, .grad = grad_fmod, .saves = both});
  t.add({.schema_text = "heaviside(Tensor self, Tensor values) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_heaviside, .kernel = pointwise_kernel<HeavisideF, 2, dtype_heaviside>, .lower = lower_heaviside});
  t.add({.schema_text = "float_power(Tensor self, Tensor exponent) -> Tensor", .kind = C,
         .composite = float_power_composite});
  t.add({.schema_text = "float_power_(Tensor self, Tensor exponent) -> Tensor", .kind = C,
         .composite = float_power_inplace_composite});

  // Three inputs.
  t.add({.schema_text = "lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_lerp, .kernel = lerp_kernel, .grad = grad_lerp, .saves = both | save_in(2),
         .lower = lower_lerp});
  t.add({.schema_text = "lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_lerp, .kernel = lerp_kernel, .grad = grad_lerp, .saves = both, .lower = lower_lerp});
  t.add({.schema_text = "addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
         .kind = P, .shape = B, .dtype = Pr, .kernel = pointwise_kernel<AddcmulF, 3, Pr>, .grad = grad_addcmul,
         .saves = save_in(1) | save_in(2), .lower = lower_addc<KOp::Mul>});
  t.add({.schema_text = "addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
         .kind = P, .shape = B, .dtype = dtype_addcdiv, .kernel = pointwise_kernel<AddcdivF, 3, dtype_addcdiv>,
         .grad = grad_addcdiv, .saves = save_in(1) | save_in(2), .lower = lower_addc<KOp::Div>});

  // In place: PyTorch's X_ for each functional op above.
  const char* const inplace[][2] = {
      {"floor_(Tensor self) -> Tensor", "floor"}, {"ceil_(Tensor self) -> Tensor", "ceil"},
      {"trunc_(Tensor self) -> Tensor", "trunc"}, {"fix_(Tensor self) -> Tensor", "fix"},
      {"round_(Tensor self) -> Tensor", "round"}, {"round_.decimals(Tensor self, *, int decimals) -> Tensor", "round.decimals"},
      {"frac_(Tensor self) -> Tensor", "frac"}, {"reciprocal_(Tensor self) -> Tensor", "reciprocal"},
      {"clamp_min_.Tensor(Tensor self, Tensor min) -> Tensor", "clamp_min.Tensor"},
      {"clamp_min_(Tensor self, Scalar min) -> Tensor", "clamp_min"},
      {"clamp_max_.Tensor(Tensor self, Tensor max) -> Tensor", "clamp_max.Tensor"},
      {"clamp_max_(Tensor self, Scalar max) -> Tensor", "clamp_max"},
      {"nan_to_num_(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor", "nan_to_num"},
      {"logical_and_(Tensor self, Tensor other) -> Tensor", "logical_and"},
      {"logical_or_(Tensor self, Tensor other) -> Tensor", "logical_or"},
      {"logical_xor_(Tensor self, Tensor other) -> Tensor", "logical_xor"},
      {"bitwise_and_(Tensor self, Tensor other) -> Tensor", "bitwise_and"},
      {"bitwise_or_(Tensor self, Tensor other) -> Tensor", "bitwise_or"},
      {"bitwise_xor_(Tensor self, Tensor other) -> Tensor", "bitwise_xor"},
      {"bitwise_not_(Tensor self) -> Tensor", "bitwise_not"},
      {"bitwise_left_shift_(Tensor self, Tensor other) -> Tensor", "bitwise_left_shift"},
      {"bitwise_right_shift_(Tensor self, Tensor other) -> Tensor", "bitwise_right_shift"},
      {"logit_(Tensor self, float? eps=None) -> Tensor", "logit"},
      {"expm1_(Tensor self) -> Tensor", "expm1"}, {"exp2_(Tensor self) -> Tensor", "exp2"},
      {"log2_(Tensor self) -> Tensor", "log2"}, {"log10_(Tensor self) -> Tensor", "log10"},
      {"tan_(Tensor self) -> Tensor", "tan"}, {"asin_(Tensor self) -> Tensor", "asin"},
      {"acos_(Tensor self) -> Tensor", "acos"}, {"atan_(Tensor self) -> Tensor", "atan"},
      {"sinh_(Tensor self) -> Tensor", "sinh"}, {"cosh_(Tensor self) -> Tensor", "cosh"},
      {"asinh_(Tensor self) -> Tensor", "asinh"}, {"acosh_(Tensor self) -> Tensor", "acosh"},
      {"atanh_(Tensor self) -> Tensor", "atanh"}, {"erfc_(Tensor self) -> Tensor", "erfc"},
      {"erfinv_(Tensor self) -> Tensor", "erfinv"}, {"sinc_(Tensor self) -> Tensor", "sinc"},
      {"lgamma_(Tensor self) -> Tensor", "lgamma"}, {"digamma_(Tensor self) -> Tensor", "digamma"},
      {"atan2_(Tensor self, Tensor other) -> Tensor", "atan2"}, {"hypot_(Tensor self, Tensor other) -> Tensor", "hypot"},
      {"xlogy_(Tensor self, Tensor other) -> Tensor", "xlogy"},
      {"copysign_(Tensor self, Tensor other) -> Tensor", "copysign"},
      {"fmod_(Tensor self, Tensor other) -> Tensor", "fmod"},
      {"heaviside_(Tensor self, Tensor values) -> Tensor", "heaviside"},
      {"lerp_.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", "lerp.Tensor"},
      {"lerp_.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", "lerp.Scalar"},
      {"addcmul_(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", "addcmul"},
      {"addcdiv_(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", "addcdiv"},
      // pointwise.cpp's ops
      {"pow_.Tensor(Tensor self, Tensor exponent) -> Tensor", "pow"},
      {"pow_.Scalar(Tensor self, Scalar exponent) -> Tensor", "pow.Tensor_Scalar"},
      {"abs_(Tensor self) -> Tensor", "abs"}, {"neg_(Tensor self) -> Tensor", "neg"},
      {"sign_(Tensor self) -> Tensor", "sign"}, {"exp_(Tensor self) -> Tensor", "exp"},
      {"log_(Tensor self) -> Tensor", "log"}, {"log1p_(Tensor self) -> Tensor", "log1p"},
      {"sqrt_(Tensor self) -> Tensor", "sqrt"}, {"rsqrt_(Tensor self) -> Tensor", "rsqrt"},
      {"sin_(Tensor self) -> Tensor", "sin"}, {"cos_(Tensor self) -> Tensor", "cos"},
      {"tanh_(Tensor self) -> Tensor", "tanh"}, {"sigmoid_(Tensor self) -> Tensor", "sigmoid"},
      {"erf_(Tensor self) -> Tensor", "erf"}, {"logical_not_(Tensor self) -> Tensor", "logical_not"},
      {"remainder_(Tensor self, Tensor other) -> Tensor", "remainder"},
      {"floor_divide_(Tensor self, Tensor other) -> Tensor", "floor_divide"},
      {"clamp_.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", "clamp.Tensor"},
  };
  for (const auto& [schema, of] : inplace) t.add({.schema_text = schema, .inplace_of = of});

  // Aliases PyTorch defines; in-place aliases name their own functional alias.
  const char* const aliases[][2] = {
      {"absolute(Tensor self) -> Tensor", "abs"}, {"absolute_(Tensor self) -> Tensor", "abs_"},
      {"negative(Tensor self) -> Tensor", "neg"}, {"negative_(Tensor self) -> Tensor", "neg_"},
      {"sgn(Tensor self) -> Tensor", "sign"}, {"sgn_(Tensor self) -> Tensor", "sign_"},
      {"multiply(Tensor self, Tensor other) -> Tensor", "mul"}, {"multiply_(Tensor self, Tensor other) -> Tensor", "mul_"},
      {"divide(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", "div"},
      {"divide_(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", "div_"},
      {"subtract(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "sub"},
      {"subtract_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "sub_"},
      {"clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", "clamp.Tensor"},
      {"clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", "clamp"},
      {"clip_.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", "clamp_.Tensor"},
      {"clip_(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", "clamp_"},
      {"greater(Tensor self, Tensor other) -> Tensor", "gt"}, {"greater_equal(Tensor self, Tensor other) -> Tensor", "ge"},
      {"less(Tensor self, Tensor other) -> Tensor", "lt"}, {"less_equal(Tensor self, Tensor other) -> Tensor", "le"},
      {"not_equal(Tensor self, Tensor other) -> Tensor", "ne"},
      {"greater_(Tensor self, Tensor other) -> Tensor", "gt_"}, {"greater_equal_(Tensor self, Tensor other) -> Tensor", "ge_"},
      {"less_(Tensor self, Tensor other) -> Tensor", "lt_"}, {"less_equal_(Tensor self, Tensor other) -> Tensor", "le_"},
      {"not_equal_(Tensor self, Tensor other) -> Tensor", "ne_"},
      {"arcsin(Tensor self) -> Tensor", "asin"}, {"arcsin_(Tensor self) -> Tensor", "asin_"},
      {"arccos(Tensor self) -> Tensor", "acos"}, {"arccos_(Tensor self) -> Tensor", "acos_"},
      {"arctan(Tensor self) -> Tensor", "atan"}, {"arctan_(Tensor self) -> Tensor", "atan_"},
      {"arcsinh(Tensor self) -> Tensor", "asinh"}, {"arcsinh_(Tensor self) -> Tensor", "asinh_"},
      {"arccosh(Tensor self) -> Tensor", "acosh"}, {"arccosh_(Tensor self) -> Tensor", "acosh_"},
      {"arctanh(Tensor self) -> Tensor", "atanh"}, {"arctanh_(Tensor self) -> Tensor", "atanh_"},
      {"arctan2(Tensor self, Tensor other) -> Tensor", "atan2"}, {"arctan2_(Tensor self, Tensor other) -> Tensor", "atan2_"},
  };
  for (const auto& [schema, of] : aliases) add_alias(t, schema, of);
  t.add({.schema_text = "true_divide(Tensor self, Tensor other) -> Tensor", .kind = C, .composite = true_divide_composite});
  t.add({.schema_text = "rsub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .kind = C,
         .composite = rsub_composite});
  t.add({.schema_text = "true_divide_(Tensor self, Tensor other) -> Tensor", .kind = C,
         .composite = true_divide_inplace_composite});
  t.add({.schema_text = "angle(Tensor self) -> Tensor", .kind = C, .composite = angle_composite,
         .grad_node = "AngleBackward0"});
}

// ---- typed wrappers ---------------------------------------------------------------------------
Tensor floor(const Tensor& a) { return invoke("floor", {a}); }
Tensor ceil(const Tensor& a) { return invoke("ceil", {a}); }
Tensor trunc(const Tensor& a) { return invoke("trunc", {a}); }
Tensor round(const Tensor& a) { return invoke("round", {a}); }
Tensor reciprocal(const Tensor& a) { return invoke("reciprocal", {a}); }
Tensor isnan(const Tensor& a) { return invoke("isnan", {a}); }
Tensor isinf(const Tensor& a) { return invoke("isinf", {a}); }
Tensor isfinite(const Tensor& a) { return invoke("isfinite", {a}); }
Tensor logical_and(const Tensor& a, const Tensor& b) { return invoke("logical_and", {a, b}); }
Tensor logical_or(const Tensor& a, const Tensor& b) { return invoke("logical_or", {a, b}); }
Tensor logical_xor(const Tensor& a, const Tensor& b) { return invoke("logical_xor", {a, b}); }
Tensor bitwise_not(const Tensor& a) { return invoke("bitwise_not", {a}); }
Tensor sinh(const Tensor& a) { return invoke("sinh", {a}); }
Tensor cosh(const Tensor& a) { return invoke("cosh", {a}); }
Tensor exp2(const Tensor& a) { return invoke("exp2", {a}); }
Tensor xlogy(const Tensor& a, const Tensor& b) { return invoke("xlogy", {a, b}); }

}  // namespace kiln
