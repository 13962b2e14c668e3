// What the pointwise op files (pointwise.cpp, pointwise_math.cpp) share: the
// functor-to-kernel plumbing, Python numbers as wrapped tensors, the
// gradient masks and the lowering helpers. Included only by core/ops/*.cpp.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "core/lowering.h"
#include "core/ops/common.h"
#include "core/ops/vector_libm.h"

namespace kiln::ops {

// ---- kernel plumbing -------------------------------------------------------------
// Which compute dtypes a functor accepts. PyTorch's kernels for integer-only
// or float-only formulas reject the others with "<name>" not implemented for
// '<dtype>'; a functor names its kernel with kName for that message.
enum class Domain { All, NoBool, Floating, Integral /* ints and bool */, IntegralNoBool };

template <class F> constexpr Domain domain_of() {
  if constexpr (requires { F::kDomain; }) return F::kDomain;
  else return Domain::All;
}
template <class F> constexpr const char* name_of() {
  if constexpr (requires { F::kName; }) return F::kName;
  else return "pointwise";
}

[[noreturn]] inline void not_implemented_for(const char* name, DType d) {
  throw Error(detail::cat("\"", name, "\" not implemented for '", dtype_legacy_name(d), "'"),
              ErrorKind::NotImplemented);
}

// run_pointwise instantiates its loop for every dtype even when it rejects
// non-floating ones at run time; this keeps float-only formulas from being
// compiled for int and bool.
template <class F>
struct FloatOnly {
  const F& f;
  template <class... T> [[gnu::always_inline]] auto operator()(T... x) const {
    using C = std::common_type_t<T...>;
    if constexpr (std::is_floating_point_v<C>) return f(x...);
    else return C();  // unreachable: visit_floating throws first
  }
};

// Raises PyTorch's "not implemented for" error when F has no kernel for dtype ct.
template <class F>
void check_domain(DType ct) {
  constexpr Domain d = domain_of<F>();
  bool refused = (d == Domain::NoBool && ct == DType::Bool) || (d == Domain::Integral && is_floating(ct)) ||
                 (d == Domain::IntegralNoBool && (is_floating(ct) || ct == DType::Bool));
  if (refused) not_implemented_for(name_of<F>(), ct);
}

// An op's dtype rule that also refuses dtypes outside F's domain, for ops whose
// output dtype is their compute dtype: dispatch runs the rule at the call, so
// the error stays at the caller's line when the kernel is deferred (core/lazy.h).
template <class F, std::vector<DType> (*Rule)(const Args&)>
std::vector<DType> dtype_in_domain(const Args& a) {
  std::vector<DType> d = Rule(a);
  check_domain<F>(d[0]);
  return d;
}

template <class F, size_t NIn>
void run_functor(const Tensor& out, std::array<Tensor, NIn> ins, DType ct, const F& f) {
  if constexpr (domain_of<F>() == Domain::Floating) {
    run_pointwise(out, std::move(ins), ct, FloatOnly<F>{f}, name_of<F>(), true);
  } else {
    check_domain<F>(ct);
    run_pointwise(out, std::move(ins), ct, f, name_of<F>(), false);
  }
}

// Kernel for a functor F constructed from the bound args; its first NIn args
// are the tensor inputs. CT picks the compute dtype (usually the op's dtype rule).
template <class F, size_t NIn, std::vector<DType> (*CT)(const Args&)>
void pointwise_kernel(const Args& a, std::vector<Tensor>& outs) {
  std::array<Tensor, NIn> ins;
  for (size_t i = 0; i < NIn; ++i) ins[i] = a[i].tensor();
  // A fresh output of a promoting op already has the compute dtype; only
  // in-place writes (self may be narrower) and other rules need CT again.
  bool fresh = CT == dtype_promote && outs[0].dtype() != DType::Bool && !outs[0].is_same(ins[0]);
  run_functor(outs[0], ins, fresh ? outs[0].dtype() : CT(a)[0], F(a));
}

// ---- fmod without a libm call ----------------------------------------------------------
// C's fmod of floats in a form loops vectorise (glibc's fmod is a call per
// element). With q = trunc(|x| / |y|), |x| - q |y| is exact in one fma while q
// is below 2^52 (float: computed in double, q below 2^28 keeps q |y| exact);
// the rounded division never lands below the true quotient's integer part
// and at most one above it, so one add of |y| fixes a negative result. The
// result takes x's sign, zero included. Out of that range, and for y = 0, an
// infinite x or a nan, it returns nan, and two_pass_kernel reruns the exact functor.
template <class T>
[[gnu::always_inline]] inline T fmod_fast(T x, T y) {
  constexpr bool kF64 = std::is_same_v<T, double>;
  const double ax = std::abs(double(x)), ay = std::abs(double(y));
  const double q = std::trunc(ax / ay);
  double r = std::fma(-q, ay, ax);
  r = r < 0 ? r + ay : r;
  const T m = std::copysign(T(r), x);
  const bool in_range = ax < (kF64 ? 0x1p52 : 0x1p28) * ay;  // false for nan, infinite x and y = 0
  return in_range ? (std::isinf(ay) ? x : m) : std::numeric_limits<T>::quiet_NaN();
}
// remainder (the divisor's sign) from fmod_fast, as PyTorch's from fmod.
template <class T>
[[gnu::always_inline]] inline T remainder_fast(T x, T y) {
  const T m = fmod_fast(x, y);
  const bool fix = (m != T(0)) & ((y < T(0)) != (m < T(0)));
  return fix ? T(m + y) : m;
}

// Whether a float tensor holds a nan; a strided one answers yes (the exact pass then runs).
inline bool any_nan(const Tensor& t) {
  if (!t.is_contiguous()) return true;
  bool found = false;
  visit_floating(t.dtype(), "isnan", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.data<T>();
    bool f = false;
    for (int64_t i = 0, n = t.numel(); i < n; ++i) f |= compute_t<T>(p[i]) != compute_t<T>(p[i]);
    found = f;
  });
  return found;
}
// A float op through Fast, a functor that vectorises but answers nan where
// it cannot decide (fmod_fast), with the rare result holding a nan computed
// again through Exact; other dtypes through Exact. An output that shares an
// input's storage (in place) gets a fresh buffer, so the rerun reads the input.
template <class Fast, class Exact>
void two_pass_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (!is_floating(dtype_promote(a)[0])) return pointwise_kernel<Exact, 2, dtype_promote>(a, outs);
  const Tensor& out = outs[0];
  const bool alias = out.storage() == a[0].tensor().storage() || out.storage() == a[1].tensor().storage();
  std::vector<Tensor> res{alias ? empty_tensor(out.sizes(), out.dtype()) : out};
  pointwise_kernel<Fast, 2, dtype_promote>(a, res);
  if (any_nan(res[0])) pointwise_kernel<Exact, 2, dtype_promote>(a, res);
  if (alias) copy_cast(out, res[0]);
}

template <class T> constexpr bool kIsBool = std::is_same_v<T, bool>;
template <class T> constexpr bool kIsInt = std::is_integral_v<T> && !kIsBool<T>;
template <class T> constexpr bool kIsFloat = std::is_floating_point_v<T>;

// Float functions: int and bool inputs compute (and return) float32. Always
// inlined: GCC leaves a call to a long body (float_math.h's erf) in the loop,
// which then stays scalar.
#define KILN_FLOAT_UNARY(Name, name, expr)                                        \
  struct Name {                                                                   \
    static constexpr Domain kDomain = Domain::Floating;                           \
    static constexpr const char* kName = name;                                    \
    explicit Name(const Args&) {}                                                 \
    template <class T> [[gnu::always_inline]] T operator()(T x) const { return expr; } \
  };

// ---- integer arithmetic ----------------------------------------------------------
// Signed overflow wraps (two's complement), as PyTorch's kernels do in
// practice; going through unsigned keeps that defined behaviour for UBSan.
// U is at least unsigned int: uint16_t operands would promote to (signed) int,
// whose product can overflow.
template <class T> using WrapU = std::make_unsigned_t<std::common_type_t<T, int>>;
template <class T> T wrap_add(T x, T y) { using U = WrapU<T>; return T(U(x) + U(y)); }
template <class T> T wrap_sub(T x, T y) { using U = WrapU<T>; return T(U(x) - U(y)); }
template <class T> T wrap_mul(T x, T y) { using U = WrapU<T>; return T(U(x) * U(y)); }
template <class T> T wrap_neg(T x) { using U = WrapU<T>; return T(U(0) - U(x)); }

template <class T> void check_nonzero(T y) {
  if (y == 0) throw Error("ZeroDivisionError", ErrorKind::Runtime);
}

// ---- Python numbers ----------------------------------------------------------------
// Python numbers as the wrapped 0-dim tensors type promotion ranks lowest.
inline Tensor num(double v) { return scalar_tensor(v, DType::Float64, true); }
inline Tensor wrap_scalar(const Value& v) {
  if (v.is_double()) return num(v.to_double());
  if (v.is_bool()) return scalar_tensor(v.to_double(), DType::Bool, true);
  Tensor t = scalar_tensor(0, DType::Int64, true);
  *t.data<int64_t>() = v.to_int();  // exact beyond 2^53
  return t;
}
// The Scalar a wrapped-number tensor came from.
inline Value unwrap_scalar(const Tensor& t) {
  if (t.dtype() == DType::Bool) return Value(t.item_bool());
  if (is_floating(t.dtype())) return Value(t.item_double());
  return Value(t.item_int());
}
inline bool is_wrapped(const Tensor& t) { return t.impl()->is_wrapped_number; }
// An optional argument that was given (not None, not an undefined tensor).
inline bool present(const Value& v) { return !v.is_none() && (!v.is_tensor() || v.tensor().defined()); }

// ---- selection -----------------------------------------------------------------------
// maximum/minimum propagate nan from either side; on bool they are or/and.
struct MaximumF {
  explicit MaximumF(const Args&) {}
  MaximumF() = default;
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsBool<T>) return x || y;
    else if constexpr (kIsFloat<T>) return (x != x || y != y) ? T(x + y) : (x > y ? x : y);
    else return x > y ? x : y;
  }
};
struct MinimumF {
  explicit MinimumF(const Args&) {}
  MinimumF() = default;
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsBool<T>) return x && y;
    else if constexpr (kIsFloat<T>) return (x != x || y != y) ? T(x + y) : (x < y ? x : y);
    else return x < y ? x : y;
  }
};
// clamp's dtype rule (every Scalar bound after self): floating self keeps its
// dtype; integral self promotes with the bounds like Python numbers.
inline DType clamp_result_type(const Args& a) {
  const Tensor& self = a[0].tensor();
  if (is_floating(self.dtype())) return self.dtype();
  std::vector<Value> vals{Value(self)};
  for (size_t i = 1; i < a.size(); ++i)
    if (present(a[i])) vals.emplace_back(wrap_scalar(a[i]));
  return result_type_args(vals);
}

// ---- derivatives -------------------------------------------------------------------
// where(cond, grad, 0) and where(cond, 0, grad).
inline Tensor grad_if(const Tensor& cond, const Tensor& g) { return where(cond, g, num(0)); }
inline Tensor grad_unless(const Tensor& cond, const Tensor& g) { return where(cond, num(0), g); }

// ---- lowerings (core/lowering.h) -------------------------------------------------------
using kir::ExprId;
using kir::Lowering;
using KOp = kir::Op;

inline DType promoted(Lowering& L) { return dtype_promote(L.args)[0]; }
inline ExprId kconst(Lowering& L, double v, DType t) { return L.b.constant(v, t); }

// A float function of one float input: int inputs compute in float32 (dtype rule).
template <ExprId (*F)(Lowering&, ExprId, DType)>
bool lower_float_unary(Lowering& L) {
  DType ct = L.outs[0].dtype();
  if (!kir::lowerable_float(ct)) return false;
  L.set_out(0, F(L, L.tensor(0, ct), ct));
  return true;
}
template <KOp O> ExprId apply(Lowering& L, ExprId x, DType) { return L.b.unary(O, x); }
inline ExprId recip_of(Lowering& L, ExprId d, DType t) { return L.b.binary(KOp::Div, kconst(L, 1, t), d); }

// maximum/minimum: nan from either side gives x + y, else the larger (smaller).
template <KOp Cmp>
bool lower_extremum(Lowering& L) {
  DType ct = promoted(L);
  if (!kir::lowerable_type(ct) || ct == DType::Bool) return false;
  ExprId x = L.tensor(0, ct), y = L.tensor(1, ct);
  ExprId pick = L.b.select(L.b.compare(Cmp, x, y), x, y);
  if (kir::lowerable_float(ct)) {
    ExprId nan = L.b.binary(KOp::Or, L.b.unary(KOp::IsNan, x), L.b.unary(KOp::IsNan, y));
    pick = L.b.select(nan, L.b.binary(KOp::Add, x, y), pick);
  }
  L.set_out(0, pick);
  return true;
}

}  // namespace kiln::ops
