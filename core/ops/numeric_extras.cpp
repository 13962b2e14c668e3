// Number-theoretic, floating-point and special functions: gcd and lcm
// (integer pointwise kernels, as PyTorch's CPU ones), frexp (mantissa and
// int32 exponent), nextafter, the Bessel functions i0 and special.i1 (power
// series) and mvlgamma (a sum of lgammas).
#include <cmath>
#include <cstdlib>

#include "core/ops/lapack_util.h"
#include "core/ops/pointwise.h"

namespace kiln {
namespace ops {
namespace {

// ---- gcd, lcm ----------------------------------------------------------------------------
// Euclid on the absolute values, as ATen: gcd(0, 0) = 0. The absolute value of the type's minimum
// wraps to itself (as ATen's abs does), without std::abs's undefined behaviour, so the signed loop
// then gives ATen's results there too (gcd(INT64_MIN, 6) = -2).
template <class T> T gcd_of(T x, T y) {
  auto wrapping_abs = [](T v) { return v < 0 ? T(int64_t(0 - uint64_t(int64_t(v)))) : v; };
  T a = wrapping_abs(x), b = wrapping_abs(y);
  while (a != 0) {
    T c = a;
    a = T(b % a);
    b = c;
  }
  return b;
}
// gcd, or with Lcm |x / gcd * y| in int64, narrowed to T as PyTorch's kernel narrows its int result.
template <bool Lcm>
struct GcdLcmF {
  static constexpr Domain kDomain = Domain::IntegralNoBool;
  static constexpr const char* kName = Lcm ? "lcm_cpu" : "gcd_cpu";
  explicit GcdLcmF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (!kIsInt<T>) return x;  // not reached: the domain check refuses float and bool
    else if constexpr (!Lcm) return gcd_of(x, y);
    else {
      const T g = gcd_of(x, y);
      if (g == 0) return T(0);
      // The product wraps in uint64 as the hardware's int64 does, without signed-overflow UB.
      const int64_t l = int64_t(uint64_t(int64_t(x) / int64_t(g)) * uint64_t(int64_t(y)));
      return T(l < 0 ? int64_t(0 - uint64_t(l)) : l);
    }
  }
};

// ---- frexp -------------------------------------------------------------------------------
// frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent): x = m * 2^e with
// |m| in [0.5, 1); zeros, infinities and NaNs keep their value with e = 0.
std::vector<Shape> shape_frexp(const Args& a) { return {a[0].tensor().sizes(), a[0].tensor().sizes()}; }
std::vector<DType> dtype_frexp(const Args& a) {
  const DType d = a[0].tensor().dtype();
  KILN_CHECK(is_floating(d), Runtime, "torch.frexp() only supports floating-point dtypes");
  return {d, DType::Int32};
}
void frexp_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor x = lapack::dense_copy(a[0].tensor());
  visit_floating(x.dtype(), "frexp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>();
    T* m = outs[0].data<T>();
    int32_t* e = outs[1].data<int32_t>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      int exp = 0;
      m[i] = T(std::frexp(double(in[i]), &exp));
      e[i] = std::isfinite(double(in[i])) ? int32_t(exp) : 0;
    }
  });
}
// PyTorch's formula: the mantissa's gradient over 2^exponent.
std::vector<Tensor> grad_frexp(const GradCtx& c) {
  return {div(c.grads[0], pow(2.0, c.outs[1]))};
}

// ---- i0, i1 -------------------------------------------------------------------------------
// The modified Bessel functions' power series, I0 = sum (x^2/4)^k / k!^2 and
// I1 = x/2 sum (x^2/4)^k / (k! (k+1)!), in double: the terms share a sign, so
// the sum keeps its relative precision for every x up to overflow.
double bessel_series(double x, bool i1) {
  const double q = x * x / 4;
  double term = i1 ? x / 2 : 1.0, sum = term;
  for (int k = 1; k < 2000 && std::isfinite(sum); ++k) {
    term *= q / (double(k) * double(i1 ? k + 1 : k));
    sum += term;
    if (std::abs(term) <= std::abs(sum) * 1e-17) break;
  }
  return sum;
}
KILN_FLOAT_UNARY(I0F, "i0", T(bessel_series(double(x), false)))
KILN_FLOAT_UNARY(I1F, "i1", T(bessel_series(double(x), true)))
std::vector<Tensor> grad_i0(const GradCtx& c) { return {mul(c.grads[0], invoke("special_i1", {c.in(0)}))}; }

// ---- nextafter ---------------------------------------------------------------------------
// nextafter(Tensor self, Tensor other): floating dtypes only.
std::vector<DType> dtype_nextafter(const Args& a) {
  std::vector<DType> d = dtype_promote(a);
  if (!is_floating(d[0]) || d[0] == DType::Float16 || d[0] == DType::BFloat16) not_implemented_for("nextafter_cpu", d[0]);
  return d;
}
struct NextafterF {
  explicit NextafterF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (kIsFloat<T>) return std::nextafter(x, y);
    else return x;  // not reached: the dtype rule refuses the others
  }
};

// ---- mvlgamma ----------------------------------------------------------------------------
// mvlgamma(Tensor self, int p): sum_j lgamma(x - j/2) for j < p, plus p(p-1)/4 log(pi).
std::vector<Tensor> mvlgamma_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const int64_t p = a[1].to_int();
  KILN_CHECK(p >= 1, Runtime, "p has to be greater than or equal to 1");
  const DType d = to_float_type(x.dtype());
  Tensor args = add(arange(-double(p) * 0.5 + 0.5, 0.5, 0.5, d), unsqueeze(x, -1));
  Tensor r = add(sum(invoke("lgamma", {args}), Shape{-1}), double(p * (p - 1)) * std::log(M_PI) * 0.25);
  return {as_node(r, "MvlgammaBackward0")};
}
constexpr char kMvlgamma[] = "mvlgamma";

}  // namespace
}  // namespace ops

void register_numeric_extras_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind P = OpKind::Pointwise;
  using Gcd = GcdLcmF<false>;
  using Lcm = GcdLcmF<true>;
  t.add({.schema_text = "gcd(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = shape_broadcast_args,
         .dtype = dtype_in_domain<Gcd, dtype_promote>, .kernel = pointwise_kernel<Gcd, 2, dtype_promote>});
  t.add({.schema_text = "lcm(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = shape_broadcast_args,
         .dtype = dtype_in_domain<Lcm, dtype_promote>, .kernel = pointwise_kernel<Lcm, 2, dtype_promote>});
  t.add({.schema_text = "gcd_(Tensor self, Tensor other) -> Tensor", .inplace_of = "gcd"});
  t.add({.schema_text = "lcm_(Tensor self, Tensor other) -> Tensor", .inplace_of = "lcm"});
  t.add({.schema_text = "i0(Tensor self) -> Tensor", .kind = P, .shape = shape_like_self, .dtype = dtype_promote_float,
         .kernel = pointwise_kernel<I0F, 1, dtype_promote_float>, .grad = grad_i0, .saves = save_in(0)});
  t.add({.schema_text = "special_i1(Tensor self) -> Tensor", .kind = P, .shape = shape_like_self,
         .dtype = dtype_promote_float, .kernel = pointwise_kernel<I1F, 1, dtype_promote_float>});
  t.add({.schema_text = "i0_(Tensor self) -> Tensor", .inplace_of = "i0"});
  t.add({.schema_text = "nextafter(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = shape_broadcast_args,
         .dtype = dtype_nextafter, .kernel = pointwise_kernel<NextafterF, 2, dtype_promote>});
  t.add({.schema_text = "nextafter_(Tensor self, Tensor other) -> Tensor", .inplace_of = "nextafter"});
  t.add({.schema_text = "mvlgamma(Tensor self, int p) -> Tensor", .kind = OpKind::Composite,
         .composite = mvlgamma_composite});
  t.add({.schema_text = "mvlgamma_(Tensor self, int p) -> Tensor", .kind = OpKind::Composite,
         .composite = write_back_composite<functional_of<kMvlgamma>>});
  t.add({.schema_text = "frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", .kind = OpKind::Extern,
         .shape = shape_frexp, .dtype = dtype_frexp, .kernel = frexp_kernel, .grad = grad_frexp,
         .saves = save_out(1)});
}

}  // namespace kiln
