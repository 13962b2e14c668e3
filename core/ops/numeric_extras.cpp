// Number-theoretic and floating-point decomposition functions: gcd and lcm
// (integer pointwise kernels, as PyTorch's CPU ones) and frexp (mantissa and
// int32 exponent, a kernel of its own).
#include <cmath>
#include <cstdlib>

#include "core/ops/lapack_util.h"
#include "core/ops/pointwise.h"

namespace kiln {
namespace ops {
namespace {

// ---- gcd, lcm ----------------------------------------------------------------------------
// Euclid on the absolute values: gcd(0, 0) = 0 and the result is never negative.
template <class T> T gcd_of(T x, T y) {
  T a = T(std::abs(int64_t(x))), b = T(std::abs(int64_t(y)));
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
      return g == 0 ? T(0) : T(std::abs(int64_t(x) / int64_t(g) * int64_t(y)));
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
  t.add({.schema_text = "frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", .kind = OpKind::Extern,
         .shape = shape_frexp, .dtype = dtype_frexp, .kernel = frexp_kernel, .grad = grad_frexp,
         .saves = save_out(1)});
}

}  // namespace kiln
