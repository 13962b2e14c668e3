// Pointwise ops: elementwise with broadcasting and PyTorch's type promotion.
// Each entry's functor is the scalar formula; run_pointwise supplies the loop.
#include <cmath>

#include "core/autograd.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

// Kernel for a functor F constructed from the bound args. CT picks the
// compute dtype from the args (usually the op's own dtype rule).
template <class F, size_t NIn, std::vector<DType> (*CT)(const Args&), bool FloatOnly = false>
void pointwise_kernel(const Args& a, std::vector<Tensor>& outs) {
  std::array<Tensor, NIn> ins;
  for (size_t i = 0; i < NIn; ++i) ins[i] = a[i].tensor();
  run_pointwise(outs[0], ins, CT(a)[0], F(a), "pointwise", FloatOnly);
}

// ---- arithmetic ---------------------------------------------------------------
struct AddF {
  double alpha;
  explicit AddF(const Args& a) : alpha(a[2].to_double()) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x || (alpha != 0 && y);
    else return alpha == 1 ? T(x + y) : T(x + T(alpha) * y);
  }
};
struct SubF {
  double alpha;
  explicit SubF(const Args& a) : alpha(a[2].to_double()) {}
  template <class T> T operator()(T x, T y) const { return alpha == 1 ? T(x - y) : T(x - T(alpha) * y); }
};
struct MulF {
  explicit MulF(const Args&) {}
  template <class T> T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x && y;
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
    if constexpr (std::is_floating_point_v<T>) {
      T q = x / y;
      return mode == 0 ? q : mode == 1 ? std::trunc(q) : std::floor(q);
    } else if constexpr (std::is_same_v<T, bool>) {
      return x;
    } else {
      if (y == 0) throw Error("ZeroDivisionError", ErrorKind::ZeroDivision);
      T q = x / y;
      if (mode == 2 && (x % y != 0) && ((x < 0) != (y < 0))) --q;
      return q;
    }
  }
};
std::vector<DType> dtype_div(const Args& a) {
  return a[2].is_none() ? dtype_promote_float(a) : dtype_promote(a);
}

struct NegF {
  explicit NegF(const Args&) {}
  template <class T> T operator()(T x) const { return -x; }
};
struct IdentityF {
  explicit IdentityF(const Args&) {}
  template <class T> T operator()(T x) const { return x; }
};

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
std::vector<Tensor> grad_identity(const GradCtx& c) { return {c.grad()}; }
std::vector<Tensor> grad_neg(const GradCtx& c) { return {neg(c.grad())}; }
// copy(self, src), fill, zero: the result no longer depends on self.
std::vector<Tensor> grad_copy(const GradCtx& c) { return {zeros_like(c.grad()), c.grad()}; }
std::vector<Tensor> grad_overwrite(const GradCtx& c) { return {zeros_like(c.grad())}; }

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

}  // namespace
}  // namespace ops

void register_pointwise_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind P = OpKind::Pointwise;
  t.add({.schema_text = "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .kind = P,
         .shape = shape_broadcast_args, .dtype = dtype_promote,
         .kernel = pointwise_kernel<AddF, 2, dtype_promote>, .grad = grad_add});
  t.add({.schema_text = "sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .kind = P,
         .shape = shape_broadcast_args, .dtype = dtype_promote,
         .kernel = pointwise_kernel<SubF, 2, dtype_promote>, .grad = grad_sub});
  t.add({.schema_text = "mul(Tensor self, Tensor other) -> Tensor", .kind = P, .shape = shape_broadcast_args,
         .dtype = dtype_promote, .kernel = pointwise_kernel<MulF, 2, dtype_promote>, .grad = grad_mul,
         .saves = save_in(0) | save_in(1)});
  t.add({.schema_text = "div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", .kind = P,
         .shape = shape_broadcast_args, .dtype = dtype_div, .kernel = pointwise_kernel<DivF, 2, dtype_div>,
         .grad = grad_div, .saves = save_in(0) | save_in(1)});
  t.add({.schema_text = "neg(Tensor self) -> Tensor", .kind = P, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = pointwise_kernel<NegF, 1, dtype_like_self>, .grad = grad_neg});
  t.add({.schema_text = "clone(Tensor self) -> Tensor", .kind = P, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = clone_kernel, .grad = grad_identity});
  t.add({.schema_text = "_to_copy(Tensor self, ScalarType? dtype=None) -> Tensor", .kind = P,
         .shape = shape_like_self, .dtype = dtype_to, .kernel = clone_kernel, .grad = grad_identity});
  t.add({.schema_text = "copy(Tensor self, Tensor src) -> Tensor", .kind = P, .shape = shape_copy,
         .dtype = dtype_like_self, .kernel = copy_kernel, .grad = grad_copy});
  t.add({.schema_text = "fill(Tensor self, Scalar value) -> Tensor", .kind = P, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = fill_kernel, .grad = grad_overwrite});
  t.add({.schema_text = "zero(Tensor self) -> Tensor", .kind = P, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = zero_kernel, .grad = grad_overwrite});

  t.add({.schema_text = "add_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .inplace_of = "add"});
  t.add({.schema_text = "sub_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", .inplace_of = "sub"});
  t.add({.schema_text = "mul_(Tensor self, Tensor other) -> Tensor", .inplace_of = "mul"});
  t.add({.schema_text = "div_(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", .inplace_of = "div"});
  t.add({.schema_text = "copy_(Tensor self, Tensor src) -> Tensor", .inplace_of = "copy"});
  t.add({.schema_text = "fill_(Tensor self, Scalar value) -> Tensor", .inplace_of = "fill"});
  t.add({.schema_text = "zero_(Tensor self) -> Tensor", .inplace_of = "zero"});
}

// ---- typed wrappers ---------------------------------------------------------------
Tensor add(const Tensor& a, const Tensor& b, double alpha) { return invoke("add", {a, b, alpha}); }
Tensor add(const Tensor& a, double b) { return invoke("add", {a, b}); }
Tensor sub(const Tensor& a, const Tensor& b, double alpha) { return invoke("sub", {a, b, alpha}); }
Tensor mul(const Tensor& a, const Tensor& b) { return invoke("mul", {a, b}); }
Tensor mul(const Tensor& a, double b) { return invoke("mul", {a, b}); }
Tensor div(const Tensor& a, const Tensor& b) { return invoke("div", {a, b}); }
Tensor neg(const Tensor& a) { return invoke("neg", {a}); }
Tensor clone(const Tensor& a) { return invoke("clone", {a}); }
Tensor to_dtype(const Tensor& a, DType d) { return a.dtype() == d ? a : invoke("_to_copy", {a, d}); }
Tensor& add_(Tensor& s, const Tensor& o, double alpha) { invoke("add_", {s, o, alpha}); return s; }
Tensor& sub_(Tensor& s, const Tensor& o, double alpha) { invoke("sub_", {s, o, alpha}); return s; }
Tensor& mul_(Tensor& s, const Tensor& o) { invoke("mul_", {s, o}); return s; }
Tensor& zero_(Tensor& s) { invoke("zero_", {s}); return s; }
Tensor& fill_(Tensor& s, double v) { invoke("fill_", {s, v}); return s; }
Tensor& copy_(Tensor& s, const Tensor& src) { invoke("copy_", {s, src}); return s; }

}  // namespace kiln
