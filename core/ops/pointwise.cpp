// Pointwise ops: elementwise with broadcasting and PyTorch's type promotion.
// Each entry's functor is the scalar formula; run_pointwise supplies the loop.
#include "core/ops/pointwise.h"

#include <functional>
#include <limits>

#include "core/autograd.h"
#include "core/float_math.h"

namespace kiln {
namespace ops {
namespace {

// Python's // on integers. min // -1 wraps instead of trapping.
template <class T> T floor_div_int(T x, T y) {
  check_nonzero(y);
  if (y == -1) return wrap_neg(x);
  T q = x / y;
  return (x % y != 0 && ((x < 0) != (y < 0))) ? T(q - 1) : q;
}
template <class T> T trunc_div_int(T x, T y) {
  check_nonzero(y);
  return y == -1 ? wrap_neg(x) : T(x / y);
}
// Python's % on integers: the result takes the divisor's sign.
template <class T> T remainder_int(T x, T y) {
  check_nonzero(y);
  if (y == -1) return 0;
  T r = x % y;
  return (r != 0 && ((r < 0) != (y < 0))) ? T(r + y) : r;
}
// Python's // on floats: floor of the exact quotient, computed from fmod so
// that it agrees with % (a plain floor(x / y) can be off by one after rounding).
template <class T> T floor_div_float(T x, T y) {
  if (y == 0) return x / y;  // IEEE: ±inf or nan
  T mod = std::fmod(x, y);
  T div = (x - mod) / y;
  if (mod != 0 && ((y < 0) != (mod < 0))) div -= T(1);
  if (div == 0) return std::copysign(T(0), x / y);
  T fl = std::floor(div);
  return div - fl > T(0.5) ? T(fl + 1) : fl;
}
template <class T> T remainder_float(T x, T y) {
  T mod = std::fmod(x, y);
  return (mod != 0 && ((y < 0) != (mod < 0))) ? T(mod + y) : mod;
}
// Integer power by squaring (wrapping). A negative exponent truncates 1/base^-e
// toward zero: only ±1 survive.
template <class T> T int_pow(T base, T e) {
  if (e < 0) {
    if (base == 1) return 1;
    if (base == -1) return (e % 2 != 0) ? T(-1) : T(1);
    return 0;
  }
  using U = WrapU<T>;
  U r = 1, b = U(base);
  for (auto k = U(e); k; k >>= 1) {
    if (k & 1) r *= b;
    b *= b;
  }
  return T(r);
}

// ---- arithmetic ---------------------------------------------------------------

// add/sub's result dtype. A fractional alpha can't scale an integral result:
// PyTorch refuses it (a float alpha with an integral value is let through, as
// kiln's own callers pass alpha as a double).
std::vector<DType> dtype_promote_alpha(const Args& a) {
  std::vector<DType> d = dtype_promote(a);
  if (!is_floating(d[0]) && d[0] != DType::Bool && a[2].is_double()) {
    const double alpha = a[2].to_double();
    KILN_CHECK(alpha == std::floor(alpha), Runtime,
               "For integral input tensors, argument alpha must not be a floating point number.");
  }
  return d;
}

// sub with a bool operand (tensor or Python bool) is refused as PyTorch does, pointing to xor / not.
std::vector<DType> dtype_sub(const Args& a) {
  const bool b0 = a[0].tensor().dtype() == DType::Bool, b1 = a[1].tensor().dtype() == DType::Bool;
  KILN_CHECK(!(b0 && b1), NotImplemented,
             "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
             "operator instead.");
  KILN_CHECK(!(b0 || b1), NotImplemented,
             "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
             "use the `~` or `logical_not()` operator instead.");
  return dtype_promote_alpha(a);
}

struct AddF {
  double alpha;
  explicit AddF(const Args& a) : alpha(a[2].to_double()) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsBool<T>) return x || (alpha != 0 && y);
    else if constexpr (kIsInt<T>) return alpha == 1 ? wrap_add(x, y) : wrap_add(x, wrap_mul(T(alpha), y));
    else return T(x + T(alpha) * y);  // no test of alpha per element (it keeps the loop scalar); 1 * y is y
  }
};
struct SubF {
  double alpha;
  explicit SubF(const Args& a) : alpha(a[2].to_double()) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsInt<T>) return alpha == 1 ? wrap_sub(x, y) : wrap_sub(x, wrap_mul(T(alpha), y));
    else return T(x - T(alpha) * y);
  }
};
struct MulF {
  explicit MulF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsBool<T>) return x && y;
    else if constexpr (kIsInt<T>) return wrap_mul(x, y);
    else return x * y;
  }
};
// div: true division; rounding_mode "trunc" or "floor" as torch.div.
struct DivF {
  int mode = 0;  // 0 true, 1 trunc, 2 floor
  explicit DivF(const Args& a) {
    if (!a[2].is_none()) {
      const std::string& m = a[2].str();
      KILN_CHECK(m == "trunc" || m == "floor", Value,
                 "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", m, "'");
      mode = m == "trunc" ? 1 : 2;
    }
  }
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsFloat<T>) {
      return mode == 0 ? T(x / y) : mode == 1 ? std::trunc(x / y) : floor_div_float(x, y);
    } else if constexpr (kIsBool<T>) {
      // Only rounding modes keep bool as the compute type; PyTorch has no bool kernel for them.
      not_implemented_for(mode == 1 ? "div_trunc_cpu" : "div_floor_cpu", DType::Bool);
    } else {
      return mode == 2 ? floor_div_int(x, y) : trunc_div_int(x, y);
    }
  }
};
std::vector<DType> dtype_div(const Args& a) {
  return a[2].is_none() ? dtype_promote_float(a) : dtype_promote(a);
}
// True division on its own: with the rounding mode switched per element (DivF)
// GCC kept a / b scalar, 0.88 ms at 1M floats against PyTorch's 0.16.
struct TrueDivF {
  static constexpr Domain kDomain = Domain::Floating;  // dtype_div promotes ints to float
  explicit TrueDivF(const Args&) {}
  template <class T> T operator()(T x, T y) const { return x / y; }
};
void div_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (a[2].is_none()) pointwise_kernel<TrueDivF, 2, dtype_div>(a, outs);
  else pointwise_kernel<DivF, 2, dtype_div>(a, outs);
}
struct FloorDivideF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "div_floor_cpu";
  explicit FloorDivideF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsFloat<T>) return floor_div_float(x, y);
    else if constexpr (kIsInt<T>) return floor_div_int(x, y);
    else return x;  // bool: rejected before the loop
  }
};
// remainder's floats through remainder_fast (two_pass_kernel reruns RemainderF where it gave a nan).
struct RemainderFastF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "remainder_cpu";
  explicit RemainderFastF(const Args&) {}
  template <class T> [[gnu::always_inline]] T operator()(T x, T y) const { return remainder_fast(x, y); }
};
struct RemainderF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "remainder_cpu";
  explicit RemainderF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsFloat<T>) return remainder_float(x, y);
    else if constexpr (kIsInt<T>) return remainder_int(x, y);
    else return x;
  }
};

// ---- pow -------------------------------------------------------------------------
// Tensor ** Tensor. Bool has no pow kernel in PyTorch.
struct PowF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "pow";
  explicit PowF(const Args&) {}
  PowF() = default;
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsFloat<T>) return std::pow(x, y);
    else if constexpr (kIsInt<T>) return int_pow(x, y);
    else return x;
  }
};
// Tensor ** Scalar, general exponent.
struct PowScalarF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "pow";
  double e;
  int64_t ei;  // the exponent when it is integral (only then can the compute type be integral)
  template <class T> T operator()(T x) const {
    if constexpr (kIsFloat<T>) return std::pow(x, T(e));
    else if constexpr (kIsInt<T>) return int_pow(x, T(ei));
    else return x;
  }
};
// The exponents PyTorch computes with cheaper formulas (floating types only).
struct SquareF {
  static constexpr Domain kDomain = Domain::Floating;
  template <class T> T operator()(T x) const { return x * x; }
};
struct CubeF {
  static constexpr Domain kDomain = Domain::Floating;
  template <class T> T operator()(T x) const { return x * x * x; }
};
struct SqrtF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "sqrt";
  explicit SqrtF(const Args&) {}
  SqrtF() = default;
  template <class T> T operator()(T x) const { return std::sqrt(x); }
};
struct RsqrtF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "rsqrt";
  explicit RsqrtF(const Args&) {}
  RsqrtF() = default;
  template <class T> T operator()(T x) const { return T(1) / std::sqrt(x); }
};
struct ReciprocalF {
  static constexpr Domain kDomain = Domain::Floating;
  template <class T> T operator()(T x) const { return T(1) / x; }
};
struct InvSquareF {
  static constexpr Domain kDomain = Domain::Floating;
  template <class T> T operator()(T x) const { return T(1) / (x * x); }
};

// Integer bases may not take negative integer Scalar exponents (NumPy's rule).
void check_int_pow(const Tensor& base, const Value& e) {
  KILN_CHECK(!(is_integral(base.dtype(), true) && !e.is_double() && e.to_int() < 0), Runtime,
             "Integers to negative integer powers are not allowed.");
}

void pow_scalar_into(const Tensor& out, const Tensor& self, const Value& exponent, DType ct) {
  double e = exponent.to_double();
  std::array<Tensor, 1> in{self};
  if (is_floating(ct)) {
    if (e == 2) return run_functor(out, in, ct, SquareF{});
    if (e == 3) return run_functor(out, in, ct, CubeF{});
    if (e == 0.5) return run_functor(out, in, ct, SqrtF{});
    if (e == -0.5) return run_functor(out, in, ct, RsqrtF{});
    if (e == -1) return run_functor(out, in, ct, ReciprocalF{});
    if (e == -2) return run_functor(out, in, ct, InvSquareF{});
  }
  run_functor(out, in, ct, PowScalarF{e, exponent.is_double() ? 0 : exponent.to_int()});
}

// pow(Tensor self, Tensor exponent). A Python number exponent arrives as a
// wrapped tensor: it follows pow.Tensor_Scalar, error and fast paths included.
std::vector<DType> dtype_pow(const Args& a) {
  const Tensor& e = a[1].tensor();
  if (is_wrapped(e)) check_int_pow(a[0].tensor(), unwrap_scalar(e));
  return dtype_promote(a);
}
void pow_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &self = a[0].tensor(), &e = a[1].tensor();
  DType ct = dtype_pow(a)[0];
  if (is_wrapped(e) && !is_wrapped(self)) return pow_scalar_into(outs[0], self, unwrap_scalar(e), ct);
  run_functor(outs[0], std::array<Tensor, 2>{self, e}, ct, PowF{});
}
// pow.Tensor_Scalar(Tensor self, Scalar exponent)
std::vector<DType> dtype_pow_scalar(const Args& a) {
  check_int_pow(a[0].tensor(), a[1]);
  return {result_type({a[0].tensor(), wrap_scalar(a[1])})};
}
void pow_scalar_kernel(const Args& a, std::vector<Tensor>& outs) {
  pow_scalar_into(outs[0], a[0].tensor(), a[1], dtype_pow_scalar(a)[0]);
}
// pow.Scalar(Scalar self, Tensor exponent)
std::vector<DType> dtype_pow_base(const Args& a) { return {result_type({wrap_scalar(a[0]), a[1].tensor()})}; }
std::vector<Shape> shape_pow_base(const Args& a) { return {a[1].tensor().sizes()}; }
void pow_base_kernel(const Args& a, std::vector<Tensor>& outs) {
  run_functor(outs[0], std::array<Tensor, 2>{wrap_scalar(a[0]), a[1].tensor()}, dtype_pow_base(a)[0], PowF{});
}

// ---- unary ------------------------------------------------------------------------
// Float functions (KILN_FLOAT_UNARY: ops/pointwise.h).
KILN_FLOAT_UNARY(ExpF, "exp", fmath::exp_of(x))
KILN_FLOAT_UNARY(LogF, "log", std::log(x))
KILN_FLOAT_UNARY(Log1pF, "log1p", std::log1p(x))
KILN_FLOAT_UNARY(SinF, "sin", std::sin(x))
KILN_FLOAT_UNARY(CosF, "cos", std::cos(x))
KILN_FLOAT_UNARY(TanhF, "tanh", fmath::tanh_of(x))
KILN_FLOAT_UNARY(SigmoidF, "sigmoid", T(1) / (T(1) + fmath::exp_of(-x)))
KILN_FLOAT_UNARY(ErfF, "erf", fmath::erf_of(x))
// silu keeps its input dtype: integer inputs are an error, as in PyTorch.
KILN_FLOAT_UNARY(SiluF, "silu_cpu", x / (T(1) + fmath::exp_of(-x)))

struct NegF {
  explicit NegF(const Args&) {}
  template <class T> T operator()(T x) const {
    if constexpr (kIsInt<T>) return wrap_neg(x);
    else if constexpr (kIsBool<T>) return x;  // rejected by dtype_neg
    else return -x;
  }
};
std::vector<DType> dtype_neg(const Args& a) {
  KILN_CHECK(a[0].tensor().dtype() != DType::Bool, NotImplemented,
             "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
             "use the `~` or `logical_not()` operator instead.");
  return dtype_like_self(a);
}
struct AbsF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "abs_cpu";
  explicit AbsF(const Args&) {}
  template <class T> T operator()(T x) const {
    if constexpr (kIsInt<T>) return x < 0 ? wrap_neg(x) : x;
    else if constexpr (kIsFloat<T>) return std::abs(x);
    else return x;
  }
};
// sign(nan) is 0 and sign(-0.0) is 0, as PyTorch's (0 < x) - (x < 0).
struct SignF {
  explicit SignF(const Args&) {}
  template <class T> T operator()(T x) const {
    if constexpr (kIsBool<T>) return x;
    else return T(int(T(0) < x) - int(x < T(0)));
  }
};
// max(x, 0) with x first, so nan stays nan (and the loop vectorises).
struct ReluF {
  explicit ReluF(const Args&) {}
  template <class T> T operator()(T x) const {
    if constexpr (kIsBool<T>) return x;
    else return std::max(x, T(0));
  }
};
std::vector<DType> dtype_relu(const Args& a) {
  KILN_CHECK(a[0].tensor().dtype() != DType::Bool, Runtime, "Boolean inputs not supported for relu");
  return dtype_like_self(a);
}
struct LogicalNotF {
  explicit LogicalNotF(const Args&) {}
  template <class T> bool operator()(T x) const { return !bool(x); }
};

// ---- gelu ---------------------------------------------------------------------------
constexpr double kSqrt1_2 = 0.70710678118654752440;   // 1/sqrt(2)
constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1/sqrt(2*pi)
constexpr double kTanhBeta = 0.79788456080286535588;    // sqrt(2/pi)
constexpr double kTanhKappa = 0.044715;

bool gelu_is_tanh(const Value& approximate) {
  const std::string& s = approximate.str();
  KILN_CHECK(s == "none" || s == "tanh", Runtime, "approximate argument must be either none or tanh.");
  return s == "tanh";
}
// gelu keeps its input dtype; integer inputs are an error, as in PyTorch.
std::vector<DType> dtype_gelu(const Args& a) {
  gelu_is_tanh(a[1]);
  return dtype_like_self(a);
}
std::vector<DType> dtype_gelu_backward(const Args& a) {
  gelu_is_tanh(a[2]);
  return dtype_promote(a);
}
// The approximation is a template argument: a test of it per element would
// keep the loop from vectorizing.
template <bool Tanh>
struct GeluF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "GeluKernelImpl";
  explicit GeluF(const Args&) {}
  template <class T> [[gnu::always_inline]] T operator()(T x) const {
    if constexpr (Tanh) {
      T inner = T(kTanhBeta) * (x + T(kTanhKappa) * x * x * x);
      return T(0.5) * x * (T(1) + fmath::tanh_of(inner));
    } else {
      return x * T(0.5) * (T(1) + fmath::erf_of(x * T(kSqrt1_2)));
    }
  }
};
void gelu_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (gelu_is_tanh(a[1])) return pointwise_kernel<GeluF<true>, 1, dtype_like_self>(a, outs);
  pointwise_kernel<GeluF<false>, 1, dtype_like_self>(a, outs);
}
// d gelu / dx times the incoming gradient g.
template <bool Tanh>
struct GeluBackwardF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "GeluBackwardCPUKernelImpl";
  explicit GeluBackwardF(const Args&) {}
  template <class T> [[gnu::always_inline]] T operator()(T g, T x) const {
    if constexpr (Tanh) {
      T x2 = x * x;
      T t = fmath::tanh_of(T(kTanhBeta) * (x + T(kTanhKappa) * x2 * x));
      T dinner = T(kTanhBeta) * (T(1) + T(3 * kTanhKappa) * x2);
      return g * (T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * dinner);
    } else {
      T cdf = T(0.5) * (T(1) + fmath::erf_of(x * T(kSqrt1_2)));
      T pdf = T(kInvSqrt2Pi) * fmath::exp_of(T(-0.5) * x * x);
      return g * (cdf + x * pdf);
    }
  }
};
void gelu_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (gelu_is_tanh(a[2])) return pointwise_kernel<GeluBackwardF<true>, 2, dtype_promote>(a, outs);
  pointwise_kernel<GeluBackwardF<false>, 2, dtype_promote>(a, outs);
}
// tanh' times g from the output y: g * (1 - y*y) with 1 - y*y rounded once
// (an fma), as PyTorch's CPU kernel computes it; the separately rounded form
// differs in the last bit, which a comparison with a hand-written
// (1 - h**2) * dh shows (the same bits there would be wrong).
struct TanhBackwardF {
  static constexpr Domain kDomain = Domain::Floating;
  static constexpr const char* kName = "tanh_backward_cpu";
  explicit TanhBackwardF(const Args&) {}
  template <class T> [[gnu::always_inline]] T operator()(T g, T y) const {
    if constexpr (std::is_floating_point_v<T>) return g * std::fma(-y, y, T(1));
    else return g * (T(1) - y * y);
  }
};

// ---- binary selection and comparison --------------------------------------------------
template <class Cmp>
struct CompareF {
  explicit CompareF(const Args&) {}
  template <class T> bool operator()(T x, T y) const { return Cmp{}(x, y); }
};

// where(condition, self, other): the condition is cast to the compute type
// with the values, so one loop serves every dtype.
struct WhereF {
  explicit WhereF(const Args&) {}
  template <class T> T operator()(T c, T x, T y) const { return c != T(0) ? x : y; }
};
std::vector<DType> dtype_where(const Args& a) {
  DType c = a[0].tensor().dtype();
  KILN_CHECK(c == DType::Bool, Runtime, "where expected condition to be a boolean tensor, but got a tensor with dtype ",
             dtype_legacy_name(c));
  return {result_type({a[1].tensor(), a[2].tensor()})};
}

// ---- clamp ---------------------------------------------------------------------------

void check_clamp_bounds(const Args& a) {
  KILN_CHECK(present(a[1]) || present(a[2]), Runtime,
             "torch.clamp: At least one of 'min' or 'max' must not be None");
}
// clamp(Tensor self, Scalar? min=None, Scalar? max=None)
std::vector<DType> dtype_clamp(const Args& a) {
  check_clamp_bounds(a);
  return {clamp_result_type(a)};
}
struct ClampF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "clamp_scalar_cpu";
  bool has_lo, has_hi;
  double lo_d = -std::numeric_limits<double>::infinity(), hi_d = std::numeric_limits<double>::infinity();
  int64_t lo_i = 0, hi_i = 0;  // exact integral bounds (set when the Scalar is not a float)
  // Float bounds ready for the loop (absent: -inf / inf), and 1 or NaN: a NaN bound fills
  // NaN, as PyTorch. A product, not a branch, so the loop vectorizes (a branch
  // and the bound's selection per element ran 28x slower than PyTorch).
  float lo_f, hi_f, nan_f = 1;
  double nan_d = 1;
  explicit ClampF(const Args& a) : has_lo(present(a[1])), has_hi(present(a[2])) {
    if (has_lo) set(a[1], lo_d, lo_i);
    if (has_hi) set(a[2], hi_d, hi_i);
    lo_f = float(lo_d);
    hi_f = float(hi_d);
    if (std::isnan(lo_d) || std::isnan(hi_d)) nan_f = float(nan_d = std::nan(""));
  }
  static void set(const Value& v, double& d, int64_t& i) {
    d = v.to_double();
    if (!v.is_double()) i = v.to_int();
  }
  // max then min with x first: a nan input stays nan.
  template <class T> static T clamp(T x, T lo, T hi) {
    T r = x < lo ? lo : x;
    return hi < r ? hi : r;
  }
  template <class T> T operator()(T x) const {
    if constexpr (kIsBool<T>) {
      return x;
    } else if constexpr (std::is_same_v<T, float>) {
      return clamp(x, lo_f, hi_f) * nan_f;
    } else if constexpr (kIsFloat<T>) {
      return clamp(x, T(lo_d), T(hi_d)) * T(nan_d);
    } else {
      return clamp(x, has_lo ? T(lo_i) : std::numeric_limits<T>::lowest(),
                   has_hi ? T(hi_i) : std::numeric_limits<T>::max());
    }
  }
};
// clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None)
std::vector<DType> dtype_clamp_tensor(const Args& a) {
  check_clamp_bounds(a);
  return {result_type_args(a)};
}
std::vector<Shape> shape_clamp_tensor(const Args& a) {
  Shape s = a[0].tensor().sizes();
  for (size_t i : {1, 2})
    if (present(a[i])) s = broadcast_shapes(s, a[i].tensor().sizes());
  return {s};
}
// Both bounds: a nan bound gives nan, as PyTorch's clamp kernel.
struct ClampTensorF {
  static constexpr Domain kDomain = Domain::NoBool;
  static constexpr const char* kName = "clamp_cpu";
  template <class T> T operator()(T x, T lo, T hi) const {
    if constexpr (kIsFloat<T>) {
      if (lo != lo || hi != hi) return std::numeric_limits<T>::quiet_NaN();
    }
    return std::min(std::max(x, lo), hi);
  }
};
void clamp_tensor_kernel(const Args& a, std::vector<Tensor>& outs) {
  DType ct = dtype_clamp_tensor(a)[0];
  const Tensor& self = a[0].tensor();
  bool lo = present(a[1]), hi = present(a[2]);
  if (lo && hi) {
    run_functor(outs[0], std::array<Tensor, 3>{self, a[1].tensor(), a[2].tensor()}, ct, ClampTensorF{});
  } else if (lo) {  // one bound: PyTorch's clamp_min / clamp_max are maximum / minimum
    run_functor(outs[0], std::array<Tensor, 2>{self, a[1].tensor()}, ct, MaximumF{});
  } else {
    run_functor(outs[0], std::array<Tensor, 2>{self, a[2].tensor()}, ct, MinimumF{});
  }
}

// ---- derivatives ------------------------------------------------------------------------

std::vector<Tensor> grad_add(const GradCtx& c) {
  double alpha = c.args[2].to_double();
  return {c.grad(), alpha == 1 ? c.grad() : mul(c.grad(), alpha)};
}
std::vector<Tensor> grad_sub(const GradCtx& c) {
  double alpha = c.args[2].to_double();
  return {c.grad(), mul(c.grad(), -alpha)};
}
std::vector<Tensor> grad_mul(const GradCtx& c) {
  return {c.need(0) ? mul(c.grad(), c.in(1)) : Tensor(), c.need(1) ? mul(c.grad(), c.in(0)) : Tensor()};
}
std::vector<Tensor> grad_div(const GradCtx& c) {
  KILN_CHECK(c.args[2].is_none(), Runtime, "derivative for div with rounding_mode is not implemented");
  const Tensor &x = c.in(0), &y = c.in(1);
  return {c.need(0) ? div(c.grad(), y) : Tensor(),
          c.need(1) ? neg(div(mul(c.grad(), x), mul(y, y))) : Tensor()};
}
// remainder = self - other * floor(self / other)
std::vector<Tensor> grad_remainder(const GradCtx& c) {
  return {c.grad(), c.need(1) ? neg(mul(c.grad(), floor_divide(c.in(0), c.in(1)))) : Tensor()};
}
std::vector<Tensor> grad_identity(const GradCtx& c) { return {c.grad()}; }
std::vector<Tensor> grad_neg(const GradCtx& c) { return {neg(c.grad())}; }
std::vector<Tensor> grad_zero(const GradCtx& c) { return {zeros_like(c.grad())}; }
// copy(self, src), fill, zero: the result no longer depends on self.
std::vector<Tensor> grad_copy(const GradCtx& c) { return {zeros_like(c.grad()), c.grad()}; }
std::vector<Tensor> grad_overwrite(const GradCtx& c) { return {zeros_like(c.grad())}; }

std::vector<Tensor> grad_abs(const GradCtx& c) { return {mul(c.grad(), sign(c.in(0)))}; }
std::vector<Tensor> grad_exp(const GradCtx& c) { return {mul(c.grad(), c.out())}; }
std::vector<Tensor> grad_log(const GradCtx& c) { return {div(c.grad(), c.in(0))}; }
std::vector<Tensor> grad_log1p(const GradCtx& c) { return {div(c.grad(), add(c.in(0), 1.0))}; }
std::vector<Tensor> grad_sqrt(const GradCtx& c) { return {div(c.grad(), mul(c.out(), 2.0))}; }
std::vector<Tensor> grad_rsqrt(const GradCtx& c) {
  const Tensor& r = c.out();
  return {mul(mul(c.grad(), mul(mul(r, r), r)), -0.5)};
}
std::vector<Tensor> grad_sin(const GradCtx& c) { return {mul(c.grad(), cos(c.in(0)))}; }
std::vector<Tensor> grad_cos(const GradCtx& c) { return {mul(c.grad(), neg(sin(c.in(0))))}; }
Tensor tanh_backward(const Tensor& g, const Tensor& y) { return invoke("tanh_backward", {g, y}); }
std::vector<Tensor> grad_tanh(const GradCtx& c) { return {tanh_backward(c.grad(), c.out())}; }
// tanh_backward(g, y) = g (1 - y^2): linear in g; its y-derivative is -2 g y.
std::vector<Tensor> grad_tanh_backward(const GradCtx& c) {
  const Tensor &g = c.in(0), &y = c.in(1);
  return {c.need(0) ? tanh_backward(c.grad(), y) : Tensor(),
          c.need(1) ? mul(mul(c.grad(), mul(g, y)), -2.0) : Tensor()};
}
std::vector<Tensor> grad_sigmoid(const GradCtx& c) {
  const Tensor& r = c.out();
  return {mul(mul(c.grad(), r), add(neg(r), 1.0))};
}
std::vector<Tensor> grad_erf(const GradCtx& c) {
  const Tensor& x = c.in(0);
  return {mul(c.grad(), mul(exp(neg(mul(x, x))), 1.12837916709551257390))};  // 2/sqrt(pi)
}
// PyTorch's threshold_backward(grad, result, 0).
std::vector<Tensor> grad_relu(const GradCtx& c) { return {grad_unless(le(c.out(), num(0)), c.grad())}; }
std::vector<Tensor> grad_gelu(const GradCtx& c) {
  return {gelu_backward(c.grad(), c.in(0), c.args[1].str())};
}
// gelu'' from differentiable ops, so derivatives of any order follow.
// Exact: phi(x) (2 - x^2). Tanh form, t = tanh(u), u = b (x + k x^3):
// (1 - t^2) (u' + x/2 (u'' - 2 t u'^2)).
Tensor gelu_second(const Tensor& x, bool tanh_form) {
  Tensor x2 = mul(x, x);
  if (!tanh_form) return mul(mul(exp(mul(x2, -0.5)), kInvSqrt2Pi), add(neg(x2), 2.0));
  Tensor t = tanh(mul(add(x, mul(mul(x2, x), kTanhKappa)), kTanhBeta));
  Tensor du = mul(add(mul(x2, 3 * kTanhKappa), 1.0), kTanhBeta);
  Tensor ddu = mul(x, 6 * kTanhKappa * kTanhBeta);
  Tensor inner = add(du, mul(mul(x, 0.5), sub(ddu, mul(mul(t, mul(du, du)), 2.0))));
  return mul(add(neg(mul(t, t)), 1.0), inner);
}
// gelu_backward(g, x) = g gelu'(x): linear in g; its x-derivative is g gelu''(x).
std::vector<Tensor> grad_gelu_backward(const GradCtx& c) {
  const std::string& approx = c.args[2].str();
  Tensor gg = c.need(0) ? gelu_backward(c.grad(), c.in(1), approx) : Tensor();
  Tensor gx = c.need(1) ? mul(mul(c.grad(), c.in(0)), gelu_second(c.in(1), approx == "tanh")) : Tensor();
  return {gg, gx};
}
// silu' = s * (1 + x * (1 - s)), s = sigmoid(x)
std::vector<Tensor> grad_silu(const GradCtx& c) {
  const Tensor& x = c.in(0);
  Tensor s = sigmoid(x);
  return {mul(mul(c.grad(), s), add(mul(x, add(neg(s), 1.0)), 1.0))};
}

std::vector<Tensor> grad_pow(const GradCtx& c) {
  const Tensor &x = c.in(0), &e = c.in(1), &g = c.grad();
  Tensor gx, g_e;
  if (c.need(0)) gx = grad_unless(eq(e, num(0)), mul(g, mul(e, pow(x, add(e, -1.0)))));
  if (c.need(1)) {
    Tensor zero_base = logical_and(eq(x, num(0)), ge(e, num(0)));
    g_e = mul(g, grad_unless(zero_base, mul(c.out(), log(x))));
  }
  return {gx, g_e};
}
std::vector<Tensor> grad_pow_scalar(const GradCtx& c) {
  double e = c.args[1].to_double();
  if (e == 0) return {zeros_like(c.grad())};
  return {mul(c.grad(), mul(pow(c.in(0), e - 1), e))};
}
std::vector<Tensor> grad_pow_base(const GradCtx& c) {
  double base = c.args[0].to_double();
  Tensor g = mul(mul(c.grad(), c.out()), std::log(base));
  // 0 ** e has derivative 0 in e wherever it is defined (e >= 0).
  if (base == 0) g = grad_unless(ge(c.in(1), num(0)), g);
  return {g};
}

// maximum / minimum: the larger (smaller) side takes the gradient; ties split it.
std::vector<Tensor> grad_extremum(const GradCtx& c, bool is_max) {
  const Tensor &x = c.in(0), &y = c.in(1);
  Tensor tie = where(eq(x, y), mul(c.grad(), 0.5), c.grad());
  return {c.need(0) ? grad_unless(is_max ? lt(x, y) : gt(x, y), tie) : Tensor(),
          c.need(1) ? grad_unless(is_max ? gt(x, y) : lt(x, y), tie) : Tensor()};
}
std::vector<Tensor> grad_maximum(const GradCtx& c) { return grad_extremum(c, true); }
std::vector<Tensor> grad_minimum(const GradCtx& c) { return grad_extremum(c, false); }

std::vector<Tensor> grad_where(const GradCtx& c) {
  const Tensor& cond = c.in(0);
  return {Tensor(), c.need(1) ? grad_if(cond, c.grad()) : Tensor(),
          c.need(2) ? grad_unless(cond, c.grad()) : Tensor()};
}

// The gradient passes where self lies within [min, max] (bounds included).
std::vector<Tensor> grad_clamp(const GradCtx& c) {
  const Tensor& x = c.in(0);
  Tensor inside;
  if (present(c.args[1])) inside = ge(x, wrap_scalar(c.args[1]));
  if (present(c.args[2])) {
    Tensor below_max = le(x, wrap_scalar(c.args[2]));
    inside = inside.defined() ? logical_and(inside, below_max) : below_max;
  }
  return {grad_if(inside, c.grad())};
}
// PyTorch's clamp_backward_min_max: a bound takes the gradient where it is the
// value selected; when min > max the result is max everywhere.
std::vector<Tensor> grad_clamp_tensor(const GradCtx& c) {
  const Tensor &x = c.in(0), &g = c.grad();
  bool has_lo = c.args[1].is_tensor(), has_hi = c.args[2].is_tensor();
  int lo_i = 1, hi_i = has_lo ? 2 : 1;
  std::vector<Tensor> r(size_t(1 + has_lo + has_hi));
  if (has_lo && has_hi) {
    const Tensor &lo = c.args[1].tensor(), &hi = c.args[2].tensor();
    if (c.need(0)) r[0] = grad_if(logical_and(ge(x, lo), le(x, hi)), g);
    if (c.need(lo_i)) r[size_t(lo_i)] = grad_if(logical_and(lt(x, lo), lt(lo, hi)), g);
    if (c.need(hi_i)) r[size_t(hi_i)] = grad_if(logical_or(gt(x, hi), lt(hi, lo)), g);
  } else if (has_lo) {
    const Tensor& lo = c.args[1].tensor();
    if (c.need(0)) r[0] = grad_if(ge(x, lo), g);
    if (c.need(lo_i)) r[size_t(lo_i)] = grad_if(lt(x, lo), g);
  } else {
    const Tensor& hi = c.args[2].tensor();
    if (c.need(0)) r[0] = grad_if(le(x, hi), g);
    if (c.need(hi_i)) r[size_t(hi_i)] = grad_if(gt(x, hi), g);
  }
  return r;
}

// ---- copies and fills -----------------------------------------------------------
void copy_kernel(const Args& a, std::vector<Tensor>& outs) { copy_cast(outs[0], a[1].tensor()); }
void clone_kernel(const Args& a, std::vector<Tensor>& outs) { copy_cast(outs[0], a[0].tensor()); }
void fill_kernel(const Args& a, std::vector<Tensor>& outs) {
  copy_cast(outs[0], scalar_tensor(a[1].to_double(), DType::Float64, true));
}
void zero_kernel(const Args&, std::vector<Tensor>& outs) {
  copy_cast(outs[0], scalar_tensor(0, DType::Float64, true));
}
std::vector<Shape> shape_copy(const Args& a) {
  const Shape& want = a[0].tensor().sizes();
  Shape got = broadcast_shapes(want, a[1].tensor().sizes());
  KILN_CHECK(got == want, Runtime, "output with shape ", shape_str(want), " doesn't match the broadcast shape ",
             shape_str(got));
  return {want};
}
std::vector<DType> dtype_to(const Args& a) {
  return {a[1].is_none() ? a[0].tensor().dtype() : a[1].dtype()};
}


// ---- lowerings for the fused code generators (core/lowering.h) --------------------------
// Each mirrors its functor above, operation for operation, so compiled and
// eager results agree (up to the vector math library's last bits).

bool lower_add_sub(Lowering& L, KOp op) {
  DType ct = promoted(L);
  if (!kir::lowerable_type(ct) || ct == DType::Bool) return false;
  ExprId y = L.b.binary(KOp::Mul, L.scalar(2, ct), L.tensor(1, ct));
  L.set_out(0, L.b.binary(op, L.tensor(0, ct), y));
  return true;
}
bool lower_add(Lowering& L) { return lower_add_sub(L, KOp::Add); }
bool lower_sub(Lowering& L) { return lower_add_sub(L, KOp::Sub); }
bool lower_mul(Lowering& L) {
  DType ct = promoted(L);
  if (!kir::lowerable_type(ct) || ct == DType::Bool) return false;
  L.set_out(0, L.b.binary(KOp::Mul, L.tensor(0, ct), L.tensor(1, ct)));
  return true;
}
bool lower_div(Lowering& L) {
  DType ct = dtype_div(L.args)[0];
  if (!L.args[2].is_none() || !kir::lowerable_float(ct)) return false;
  L.set_out(0, L.b.binary(KOp::Div, L.tensor(0, ct), L.tensor(1, ct)));
  return true;
}

ExprId sigmoid_of(Lowering& L, ExprId x, DType t) {
  return recip_of(L, L.b.binary(KOp::Add, kconst(L, 1, t), L.b.unary(KOp::Exp, L.b.unary(KOp::Neg, x))), t);
}
ExprId silu_of(Lowering& L, ExprId x, DType t) {
  return L.b.binary(KOp::Div, x, L.b.binary(KOp::Add, kconst(L, 1, t), L.b.unary(KOp::Exp, L.b.unary(KOp::Neg, x))));
}
ExprId rsqrt_of(Lowering& L, ExprId x, DType t) { return recip_of(L, L.b.unary(KOp::Sqrt, x), t); }

bool lower_neg(Lowering& L) {
  DType ct = L.outs[0].dtype();
  if (!kir::lowerable_type(ct) || ct == DType::Bool) return false;
  L.set_out(0, L.b.unary(KOp::Neg, L.tensor(0, ct)));
  return true;
}
bool lower_abs(Lowering& L) {
  DType ct = L.outs[0].dtype();
  if (!kir::lowerable_type(ct) || ct == DType::Bool) return false;
  L.set_out(0, L.b.unary(KOp::Abs, L.tensor(0, ct)));
  return true;
}
// (0 < x) - (x < 0): nan and -0.0 give +0.
bool lower_sign(Lowering& L) {
  DType ct = L.outs[0].dtype();
  if (!kir::lowerable_type(ct) || ct == DType::Bool) return false;
  ExprId x = L.tensor(0, ct), zero = kconst(L, 0, ct);
  ExprId below = L.b.select(L.b.compare(KOp::Lt, x, zero), kconst(L, -1, ct), zero);
  L.set_out(0, L.b.select(L.b.compare(KOp::Lt, zero, x), kconst(L, 1, ct), below));
  return true;
}
// max(x, 0) with x first: x < 0 ? 0 : x keeps nan and -0.0 as std::max does.
bool lower_relu(Lowering& L) {
  DType ct = L.outs[0].dtype();
  if (!kir::lowerable_type(ct) || ct == DType::Bool) return false;
  ExprId x = L.tensor(0, ct), zero = kconst(L, 0, ct);
  L.set_out(0, L.b.select(L.b.compare(KOp::Lt, x, zero), zero, x));
  return true;
}

bool gelu_tanh_arg(Lowering& L, int arg) { return L.args[size_t(arg)].str() == "tanh"; }
ExprId gelu_inner(Lowering& L, ExprId x, DType t) {  // kTanhBeta * (x + kTanhKappa * x*x*x)
  ExprId x3 = L.b.binary(KOp::Mul, L.b.binary(KOp::Mul, L.b.binary(KOp::Mul, kconst(L, kTanhKappa, t), x), x), x);
  return L.b.binary(KOp::Mul, kconst(L, kTanhBeta, t), L.b.binary(KOp::Add, x, x3));
}
ExprId gelu_cdf(Lowering& L, ExprId x, DType t) {  // 0.5 * (1 + erf(x * kSqrt1_2))
  ExprId e = L.b.unary(KOp::Erf, L.b.binary(KOp::Mul, x, kconst(L, kSqrt1_2, t)));
  return L.b.binary(KOp::Mul, kconst(L, 0.5, t), L.b.binary(KOp::Add, kconst(L, 1, t), e));
}
bool lower_gelu(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t)) return false;
  ExprId x = L.tensor(0, t), one = kconst(L, 1, t);
  if (gelu_tanh_arg(L, 1)) {
    // 0.5 * x * (1 + tanh(u)) is x / (1 + exp(-2u)): one exp and one
    // division, where tanh costs an exp, a division and its small-|u| path.
    // (Where tanh(u) rounds to -1 in float, this keeps the tiny negative
    // value PyTorch's formula cancels to 0.)
    ExprId e = L.b.unary(KOp::Exp, L.b.binary(KOp::Mul, kconst(L, -2, t), gelu_inner(L, x, t)));
    L.set_out(0, L.b.binary(KOp::Div, x, L.b.binary(KOp::Add, one, e)));
  } else {
    ExprId e = L.b.unary(KOp::Erf, L.b.binary(KOp::Mul, x, kconst(L, kSqrt1_2, t)));
    L.set_out(0, L.b.binary(KOp::Mul, L.b.binary(KOp::Mul, x, kconst(L, 0.5, t)), L.b.binary(KOp::Add, one, e)));
  }
  return true;
}
// Compiled kernels have no fma node: there it is g * (1 - y*y), rounded twice.
bool lower_tanh_backward(Lowering& L) {
  DType t = promoted(L);
  if (!kir::lowerable_float(t)) return false;
  ExprId g = L.tensor(0, t), y = L.tensor(1, t);
  ExprId one_minus = L.b.binary(KOp::Sub, kconst(L, 1, t), L.b.binary(KOp::Mul, y, y));
  L.set_out(0, L.b.binary(KOp::Mul, g, one_minus));
  return true;
}
bool lower_gelu_backward(Lowering& L) {
  DType t = promoted(L);
  if (!kir::lowerable_float(t)) return false;
  ExprId g = L.tensor(0, t), x = L.tensor(1, t), one = kconst(L, 1, t), half = kconst(L, 0.5, t);
  auto mul = [&](ExprId a, ExprId b) { return L.b.binary(KOp::Mul, a, b); };
  auto add = [&](ExprId a, ExprId b) { return L.b.binary(KOp::Add, a, b); };
  if (gelu_tanh_arg(L, 2)) {
    ExprId x2 = mul(x, x);
    ExprId th = L.b.unary(KOp::Tanh, mul(kconst(L, kTanhBeta, t), add(x, mul(mul(kconst(L, kTanhKappa, t), x2), x))));
    ExprId dinner = mul(kconst(L, kTanhBeta, t), add(one, mul(kconst(L, 3 * kTanhKappa, t), x2)));
    ExprId left = mul(half, add(one, th));
    ExprId right = mul(mul(mul(half, x), L.b.binary(KOp::Sub, one, mul(th, th))), dinner);
    L.set_out(0, mul(g, add(left, right)));
  } else {
    ExprId pdf = mul(kconst(L, kInvSqrt2Pi, t), L.b.unary(KOp::Exp, mul(mul(kconst(L, -0.5, t), x), x)));
    L.set_out(0, mul(g, add(gelu_cdf(L, x, t), mul(x, pdf))));
  }
  return true;
}

// clamp with Scalar bounds on a float tensor: min(max(x, lo), hi) with x first.
bool lower_clamp(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t) || L.args[0].tensor().dtype() != t) return false;
  bool lo = present(L.args[1]), hi = present(L.args[2]);
  if (lo && hi) return false;  // a nan bound fills nan: keep the eager kernel's rule
  ExprId x = L.tensor(0, t);
  // A NaN bound gives NaN (b != b picks it), as the eager kernel.
  if (lo) {
    ExprId b = L.scalar(1, t);
    x = L.b.select(L.b.compare(KOp::Lt, x, b), b, x);
    x = L.b.select(L.b.compare(KOp::Ne, b, b), b, x);
  }
  if (hi) {
    ExprId b = L.scalar(2, t);
    x = L.b.select(L.b.compare(KOp::Lt, b, x), b, x);
    x = L.b.select(L.b.compare(KOp::Ne, b, b), b, x);
  }
  L.set_out(0, x);
  return true;
}
bool lower_where(Lowering& L) {
  DType ct = dtype_where(L.args)[0];
  if (!kir::lowerable_type(ct)) return false;
  L.set_out(0, L.b.select(L.tensor(0, DType::Bool), L.tensor(1, ct), L.tensor(2, ct)));
  return true;
}
template <KOp Cmp>
bool lower_compare(Lowering& L) {
  DType ct = promoted(L);
  if (!kir::lowerable_type(ct)) return false;
  L.set_out(0, L.b.compare(Cmp, L.tensor(0, ct), L.tensor(1, ct)));
  return true;
}
bool lower_logical_not(Lowering& L) {
  if (!kir::lowerable_type(L.args[0].tensor().dtype())) return false;
  L.set_out(0, L.b.unary(KOp::Not, L.tensor(0, DType::Bool)));
  return true;
}
// Copies convert through the destination type (copy_cast's rule).
bool lower_clone(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t) || !kir::lowerable_type(L.args[0].tensor().dtype())) return false;
  L.set_out(0, L.tensor(0, t));
  return true;
}
bool lower_copy(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t) || !kir::lowerable_type(L.args[1].tensor().dtype())) return false;
  L.set_out(0, L.tensor(1, t));
  return true;
}
bool lower_fill(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t)) return false;
  L.set_out(0, L.scalar(1, t));
  return true;
}
bool lower_zero(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t)) return false;
  L.set_out(0, kconst(L, 0, t));
  return true;
}
// x ** e on floats with the eager kernel's formula for this exponent. The
// kernel is specialized on the exponent's value (checked at every launch), so
// y ** 3 is two multiplies, not a vector pow call.
ExprId pow_of(Lowering& L, ExprId x, int exponent_arg, DType t) {
  std::optional<double> e = L.specialize(exponent_arg);
  if (!e) return -1;
  auto mul = [&](ExprId a, ExprId b) { return L.b.binary(KOp::Mul, a, b); };
  if (*e == 2) return mul(x, x);
  if (*e == 3) return mul(mul(x, x), x);
  if (*e == 0.5) return L.b.unary(KOp::Sqrt, x);
  if (*e == -0.5) return recip_of(L, L.b.unary(KOp::Sqrt, x), t);
  if (*e == -1) return recip_of(L, x, t);
  if (*e == -2) return recip_of(L, mul(x, x), t);
  return L.b.binary(KOp::Pow, x, kconst(L, *e, t));
}
bool lower_pow_scalar(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t)) return false;
  L.set_out(0, pow_of(L, L.tensor(0, t), 1, t));
  return true;
}
// pow(Tensor, Tensor): a Python number exponent arrives as a wrapped tensor.
bool lower_pow(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t) || is_wrapped(L.args[0].tensor())) return false;
  ExprId x = L.tensor(0, t), e = L.tensor(1, t);
  L.set_out(0, is_wrapped(L.args[1].tensor()) ? pow_of(L, x, 1, t) : L.b.binary(KOp::Pow, x, e));
  return true;
}

}  // namespace
}  // namespace ops

void register_pointwise_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind P = OpKind::Pointwise;
  constexpr auto B = shape_broadcast_args;
  constexpr auto S = shape_like_self;

  // Arithmetic.
  t.add({.schema_text = "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_promote_alpha, .kernel = pointwise_kernel<AddF, 2, dtype_promote>, .grad = grad_add, .lower = lower_add});
  t.add({.schema_text = "sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_sub, .kernel = pointwise_kernel<SubF, 2, dtype_promote>, .grad = grad_sub, .lower = lower_sub});
  t.add({.schema_text = "mul(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_promote, .kernel = pointwise_kernel<MulF, 2, dtype_promote>, .grad = grad_mul,
         .saves = save_in(0) | save_in(1), .lower = lower_mul});
  t.add({.schema_text = "div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", .kind = P,
         .shape = B, .dtype = dtype_div, .kernel = div_kernel,
         .grad = grad_div, .saves = save_in(0) | save_in(1), .lower = lower_div});
  // floor_divide has no derivative in PyTorch either.
  t.add({.schema_text = "floor_divide(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_in_domain<FloorDivideF, dtype_promote>,
         .kernel = pointwise_kernel<FloorDivideF, 2, dtype_promote>});
  t.add({.schema_text = "remainder(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_in_domain<RemainderF, dtype_promote>,
         .kernel = two_pass_kernel<RemainderFastF, RemainderF>,
         .grad = grad_remainder, .saves = save_in(0) | save_in(1)});
  // pow first: a Python-number exponent binds here as a wrapped tensor and
  // takes the Tensor_Scalar path; a 1-element tensor must not bind as Scalar.
  t.add({.schema_text = "pow(Tensor self, Tensor exponent) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_pow, .kernel = pow_kernel, .grad = grad_pow,
         .saves = save_in(0) | save_in(1) | save_out(0), .lower = lower_pow});
  t.add({.schema_text = "pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_pow_scalar, .kernel = pow_scalar_kernel, .grad = grad_pow_scalar, .saves = save_in(0), .lower = lower_pow_scalar});
  t.add({.schema_text = "pow.Scalar(Scalar self, Tensor exponent) -> Tensor", .kind = P, .shape = shape_pow_base,
         .dtype = dtype_pow_base, .kernel = pow_base_kernel, .grad = grad_pow_base,
         .saves = save_in(1) | save_out(0)});

  // Unary, dtype kept.
  t.add({.schema_text = "neg(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_neg,
         .kernel = pointwise_kernel<NegF, 1, dtype_like_self>, .grad = grad_neg, .lower = lower_neg});
  t.add({.schema_text = "abs(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_like_self,
         .kernel = pointwise_kernel<AbsF, 1, dtype_like_self>, .grad = grad_abs, .saves = save_in(0), .lower = lower_abs});
  t.add({.schema_text = "sign(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_like_self,
         .kernel = pointwise_kernel<SignF, 1, dtype_like_self>, .grad = grad_zero, .lower = lower_sign});
  t.add({.schema_text = "relu(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_relu,
         .kernel = pointwise_kernel<ReluF, 1, dtype_like_self>, .grad = grad_relu, .saves = save_out(0), .lower = lower_relu});
  t.add({.schema_text = "gelu(Tensor self, *, str approximate='none') -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_gelu, .kernel = gelu_kernel, .grad = grad_gelu,
         .saves = save_in(0), .lower = lower_gelu});
  // Not differentiable here: derivative formulas run without building a graph.
  t.add({.schema_text = "gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor",
         .kind = P, .shape = B, .dtype = dtype_gelu_backward,
         .kernel = gelu_backward_kernel, .grad = grad_gelu_backward, .saves = save_in(0) | save_in(1),
         .lower = lower_gelu_backward});
  t.add({.schema_text = "tanh_backward(Tensor grad_output, Tensor output) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_promote, .kernel = pointwise_kernel<TanhBackwardF, 2, dtype_promote>,
         .grad = grad_tanh_backward, .saves = save_in(0) | save_in(1), .lower = lower_tanh_backward});
  t.add({.schema_text = "silu(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_like_self,
         .kernel = pointwise_kernel<SiluF, 1, dtype_like_self>, .grad = grad_silu, .saves = save_in(0), .lower = lower_float_unary<silu_of>});

  // Unary float functions: int and bool promote to float32.
  constexpr auto F = dtype_promote_float;
  t.add({.schema_text = "exp(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<ExpF, 1, F>, .grad = grad_exp, .saves = save_out(0), .lower = lower_float_unary<apply<KOp::Exp>>});
  t.add({.schema_text = "log(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<LogF, 1, F>, .grad = grad_log, .saves = save_in(0), .lower = lower_float_unary<apply<KOp::Log>>});
  t.add({.schema_text = "log1p(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<Log1pF, 1, F>, .grad = grad_log1p, .saves = save_in(0), .lower = lower_float_unary<apply<KOp::Log1p>>});
  t.add({.schema_text = "sqrt(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<SqrtF, 1, F>, .grad = grad_sqrt, .saves = save_out(0), .lower = lower_float_unary<apply<KOp::Sqrt>>});
  t.add({.schema_text = "rsqrt(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<RsqrtF, 1, F>, .grad = grad_rsqrt, .saves = save_out(0), .lower = lower_float_unary<rsqrt_of>});
  t.add({.schema_text = "sin(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<SinF, 1, F>, .grad = grad_sin, .saves = save_in(0), .lower = lower_float_unary<apply<KOp::Sin>>});
  t.add({.schema_text = "cos(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<CosF, 1, F>, .grad = grad_cos, .saves = save_in(0), .lower = lower_float_unary<apply<KOp::Cos>>});
  t.add({.schema_text = "tanh(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<TanhF, 1, F>, .grad = grad_tanh, .saves = save_out(0), .lower = lower_float_unary<apply<KOp::Tanh>>});
  t.add({.schema_text = "sigmoid(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<SigmoidF, 1, F>, .grad = grad_sigmoid, .saves = save_out(0), .lower = lower_float_unary<sigmoid_of>});
  t.add({.schema_text = "erf(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = F,
         .kernel = pointwise_kernel<ErfF, 1, F>, .grad = grad_erf, .saves = save_in(0), .lower = lower_float_unary<apply<KOp::Erf>>});

  // Selection.
  t.add({.schema_text = "maximum(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_promote, .kernel = pointwise_kernel<MaximumF, 2, dtype_promote>, .grad = grad_maximum,
         .saves = save_in(0) | save_in(1), .lower = lower_extremum<KOp::Gt>});
  t.add({.schema_text = "minimum(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_promote, .kernel = pointwise_kernel<MinimumF, 2, dtype_promote>, .grad = grad_minimum,
         .saves = save_in(0) | save_in(1), .lower = lower_extremum<KOp::Lt>});
  // clamp.Tensor first for the same reason as pow: numbers bind to it as
  // wrapped tensors with identical results, tensors never bind as Scalars.
  t.add({.schema_text = "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", .kind = P,
         .shape = shape_clamp_tensor, .dtype = dtype_clamp_tensor, .kernel = clamp_tensor_kernel,
         .grad = grad_clamp_tensor, .saves = save_in(0) | save_in(1) | save_in(2)});
  t.add({.schema_text = "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_clamp, .kernel = pointwise_kernel<ClampF, 1, dtype_clamp>, .grad = grad_clamp,
         .saves = save_in(0), .lower = lower_clamp});
  t.add({.schema_text = "where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,
         .dtype = dtype_where, .kernel = pointwise_kernel<WhereF, 3, dtype_where>, .grad = grad_where,
         .saves = save_in(0), .lower = lower_where});

  // Comparisons: computed in the promoted dtype, bool out, no derivative.
#define KILN_COMPARE(name, K, Cmp)                                                                           \
  t.add({.schema_text = name "(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = B,              \
         .dtype = dtype_bool, .kernel = pointwise_kernel<CompareF<Cmp>, 2, dtype_promote>, .lower = lower_compare<KOp::K>});
  KILN_COMPARE("eq", Eq, std::equal_to<>)
  KILN_COMPARE("ne", Ne, std::not_equal_to<>)
  KILN_COMPARE("lt", Lt, std::less<>)
  KILN_COMPARE("le", Le, std::less_equal<>)
  KILN_COMPARE("gt", Gt, std::greater<>)
  KILN_COMPARE("ge", Ge, std::greater_equal<>)
#undef KILN_COMPARE
  t.add({.schema_text = "logical_not(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_bool,
         .kernel = pointwise_kernel<LogicalNotF, 1, dtype_like_self>, .lower = lower_logical_not});

  // Copies and fills.
  t.add({.schema_text = "clone(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_like_self,
         .kernel = clone_kernel, .grad = grad_identity, .lower = lower_clone});
  t.add({.schema_text = "_to_copy(Tensor self, ScalarType? dtype=None) -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_to, .kernel = clone_kernel, .grad = grad_identity, .lower = lower_clone});
  t.add({.schema_text = "copy(Tensor self, Tensor src) -> Tensor", .kind = P, .shape = shape_copy,
         .dtype = dtype_like_self, .kernel = copy_kernel, .grad = grad_copy, .lower = lower_copy});
  t.add({.schema_text = "fill(Tensor self, Scalar value) -> Tensor", .kind = P, .shape = S,
         .dtype = dtype_fill<1>, .kernel = fill_kernel, .grad = grad_overwrite, .lower = lower_fill});
  t.add({.schema_text = "zero(Tensor self) -> Tensor", .kind = P, .shape = S, .dtype = dtype_like_self,
         .kernel = zero_kernel, .grad = grad_overwrite, .lower = lower_zero});

  // In place.
  t.add({.schema_text = "add_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .inplace_of = "add"});
  t.add({.schema_text = "sub_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .inplace_of = "sub"});
  t.add({.schema_text = "mul_(Tensor self, Tensor other) -> Tensor", .inplace_of = "mul"});
  t.add({.schema_text = "div_(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", .inplace_of = "div"});
  t.add({.schema_text = "relu_(Tensor self) -> Tensor", .inplace_of = "relu"});
  t.add({.schema_text = "clamp_(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", .inplace_of = "clamp"});
  t.add({.schema_text = "copy_(Tensor self, Tensor src) -> Tensor", .inplace_of = "copy"});
  t.add({.schema_text = "fill_(Tensor self, Scalar value) -> Tensor", .inplace_of = "fill"});
  t.add({.schema_text = "zero_(Tensor self) -> Tensor", .inplace_of = "zero"});
  // x.eq_(y): the comparison's 0 or 1 in x's own dtype.
  const char* const compare_inplace[][2] = {
      {"eq_(Tensor self, Tensor other) -> Tensor", "eq"}, {"ne_(Tensor self, Tensor other) -> Tensor", "ne"},
      {"lt_(Tensor self, Tensor other) -> Tensor", "lt"}, {"le_(Tensor self, Tensor other) -> Tensor", "le"},
      {"gt_(Tensor self, Tensor other) -> Tensor", "gt"}, {"ge_(Tensor self, Tensor other) -> Tensor", "ge"}};
  for (const auto& [schema, of] : compare_inplace) t.add({.schema_text = schema, .inplace_of = of});
}

// ---- typed wrappers ---------------------------------------------------------------
namespace {
Value opt_value(std::optional<double> v) { return v ? Value(*v) : Value(); }
Value opt_tensor(const Tensor& t) { return t.defined() ? Value(t) : Value(); }
}  // namespace

Tensor add(const Tensor& a, const Tensor& b, double alpha) { return invoke("add", {a, b, alpha}); }
Tensor add(const Tensor& a, double b) { return invoke("add", {a, b}); }
Tensor sub(const Tensor& a, const Tensor& b, double alpha) { return invoke("sub", {a, b, alpha}); }
Tensor mul(const Tensor& a, const Tensor& b) { return invoke("mul", {a, b}); }
Tensor mul(const Tensor& a, double b) { return invoke("mul", {a, b}); }
Tensor div(const Tensor& a, const Tensor& b) { return invoke("div", {a, b}); }
Tensor floor_divide(const Tensor& a, const Tensor& b) { return invoke("floor_divide", {a, b}); }
Tensor remainder(const Tensor& a, const Tensor& b) { return invoke("remainder", {a, b}); }
Tensor pow(const Tensor& a, const Tensor& b) { return invoke("pow", {a, b}); }
Tensor pow(const Tensor& a, double b) { return invoke("pow.Tensor_Scalar", {a, b}); }
Tensor pow(double a, const Tensor& b) { return invoke("pow.Scalar", {a, b}); }
Tensor neg(const Tensor& a) { return invoke("neg", {a}); }
Tensor abs(const Tensor& a) { return invoke("abs", {a}); }
Tensor sign(const Tensor& a) { return invoke("sign", {a}); }
Tensor relu(const Tensor& a) { return invoke("relu", {a}); }
Tensor gelu(const Tensor& a, const std::string& approximate) { return invoke("gelu", {a, approximate}); }
Tensor gelu_backward(const Tensor& g, const Tensor& a, const std::string& approximate) {
  return invoke("gelu_backward", {g, a, approximate});
}
Tensor silu(const Tensor& a) { return invoke("silu", {a}); }
Tensor exp(const Tensor& a) { return invoke("exp", {a}); }
Tensor log(const Tensor& a) { return invoke("log", {a}); }
Tensor log1p(const Tensor& a) { return invoke("log1p", {a}); }
Tensor sqrt(const Tensor& a) { return invoke("sqrt", {a}); }
Tensor rsqrt(const Tensor& a) { return invoke("rsqrt", {a}); }
Tensor sin(const Tensor& a) { return invoke("sin", {a}); }
Tensor cos(const Tensor& a) { return invoke("cos", {a}); }
Tensor tanh(const Tensor& a) { return invoke("tanh", {a}); }
Tensor sigmoid(const Tensor& a) { return invoke("sigmoid", {a}); }
Tensor erf(const Tensor& a) { return invoke("erf", {a}); }
Tensor maximum(const Tensor& a, const Tensor& b) { return invoke("maximum", {a, b}); }
Tensor minimum(const Tensor& a, const Tensor& b) { return invoke("minimum", {a, b}); }
Tensor clamp(const Tensor& a, std::optional<double> min, std::optional<double> max) {
  return invoke("clamp", {a, opt_value(min), opt_value(max)});
}
Tensor clamp(const Tensor& a, const Tensor& min, const Tensor& max) {
  return invoke("clamp.Tensor", {a, opt_tensor(min), opt_tensor(max)});
}
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) { return invoke("where.self", {cond, a, b}); }
Tensor eq(const Tensor& a, const Tensor& b) { return invoke("eq", {a, b}); }
Tensor ne(const Tensor& a, const Tensor& b) { return invoke("ne", {a, b}); }
Tensor lt(const Tensor& a, const Tensor& b) { return invoke("lt", {a, b}); }
Tensor le(const Tensor& a, const Tensor& b) { return invoke("le", {a, b}); }
Tensor gt(const Tensor& a, const Tensor& b) { return invoke("gt", {a, b}); }
Tensor ge(const Tensor& a, const Tensor& b) { return invoke("ge", {a, b}); }
Tensor logical_not(const Tensor& a) { return invoke("logical_not", {a}); }
Tensor clone(const Tensor& a) { return invoke("clone", {a}); }
Tensor to_dtype(const Tensor& a, DType d) { return a.dtype() == d ? a : invoke("_to_copy", {a, d}); }
Tensor& add_(Tensor& s, const Tensor& o, double alpha) { invoke("add_", {s, o, alpha}); return s; }
Tensor& sub_(Tensor& s, const Tensor& o, double alpha) { invoke("sub_", {s, o, alpha}); return s; }
Tensor& mul_(Tensor& s, const Tensor& o) { invoke("mul_", {s, o}); return s; }
Tensor& relu_(Tensor& s) { invoke("relu_", {s}); return s; }
Tensor& clamp_(Tensor& s, std::optional<double> min, std::optional<double> max) {
  invoke("clamp_", {s, opt_value(min), opt_value(max)});
  return s;
}
Tensor& zero_(Tensor& s) { invoke("zero_", {s}); return s; }
Tensor& fill_(Tensor& s, double v) { invoke("fill_", {s, v}); return s; }
Tensor& copy_(Tensor& s, const Tensor& src) { invoke("copy_", {s, src}); return s; }

}  // namespace kiln
