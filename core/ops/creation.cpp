// Creation ops: tensors from sizes and fill rules, no tensor inputs (or only
// a tensor whose shape they copy, for the *_like forms).
#include <cmath>

#include "core/float_to_int.h"
#include "core/lowering.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

DType arg_dtype_or(const Args& a, int i, DType fallback) { return a[i].is_none() ? fallback : a[i].dtype(); }

// Python number → the dtype torch.full infers for it.
DType scalar_dtype(const Value& v) {
  return v.is_bool() ? DType::Bool : v.is_int() ? DType::Int64 : kDefaultFloat;
}

void fill_value(const Tensor& out, double v) { copy_cast(out, scalar_tensor(v, DType::Float64, true)); }

std::vector<Shape> shape_size_arg(const Args& a) { return {a[0].int_list()}; }
// torch.zeros checks its sizes itself, with words of its own (ones/empty leave it to the allocator).
std::vector<Shape> shape_zeros(const Args& a) {
  Shape s = a[0].int_list();
  for (int64_t d : s) KILN_CHECK(d >= 0, Runtime, "zeros: Dimension size must be non-negative.");
  return {s};
}

// zeros/ones/empty(int[] size, *, dtype, requires_grad)
template <int Fill>
void const_kernel(const Args&, std::vector<Tensor>& outs) {
  fill_value(outs[0], Fill);
}
std::vector<DType> dtype_from_arg1(const Args& a) { return {arg_dtype_or(a, 1, kDefaultFloat)}; }

// full(int[] size, Scalar fill_value, *, dtype, requires_grad)
void full_kernel(const Args& a, std::vector<Tensor>& outs) {
  fill_value(outs[0], a[1].to_double());
}
std::vector<DType> dtype_full(const Args& a) {
  DType d = arg_dtype_or(a, 2, scalar_dtype(a[1]));
  check_scalar_fits(a[1], d);
  return {d};
}

// *_like(Tensor self, *, dtype, requires_grad)
std::vector<DType> dtype_like(const Args& a) { return {arg_dtype_or(a, 1, a[0].tensor().dtype())}; }
template <int Fill>
void const_like_kernel(const Args&, std::vector<Tensor>& outs) {
  fill_value(outs[0], Fill);
}
std::vector<DType> dtype_full_like(const Args& a) {
  DType d = arg_dtype_or(a, 2, a[0].tensor().dtype());
  check_scalar_fits(a[1], d);
  return {d};
}

// ---- arange -------------------------------------------------------------------
struct Range {
  double start, end, step;
};
Range range_of(const Args& a, bool has_start) {
  Range r{has_start ? a[0].to_double() : 0.0, a[has_start ? 1 : 0].to_double(), has_start ? a[2].to_double() : 1.0};
  KILN_CHECK(std::isfinite(r.start) && std::isfinite(r.end), Runtime, "unsupported range: ", r.start, " -> ", r.end);
  KILN_CHECK(r.step != 0, Runtime, "step must be nonzero");
  KILN_CHECK((r.step > 0 && r.end >= r.start) || (r.step < 0 && r.end <= r.start), Runtime,
             "upper bound and lower bound inconsistent with step sign");
  return r;
}
template <bool HasStart>
std::vector<DType> dtype_arange(const Args& a) {
  int dt = HasStart ? 3 : 1;
  if (!a[dt].is_none()) return {a[dt].dtype()};
  bool any_float = a[0].is_double() || (HasStart && (a[1].is_double() || a[2].is_double()));
  return {any_float ? kDefaultFloat : DType::Int64};
}
template <bool HasStart>
std::vector<Shape> shape_arange(const Args& a) {
  Range r = range_of(a, HasStart);
  DType d = dtype_arange<HasStart>(a)[0];
  double n = is_floating(d) ? std::ceil((r.end - r.start) / r.step)
                            : std::ceil((std::trunc(r.end) - std::trunc(r.start)) / std::trunc(r.step));
  // PyTorch's check; also keeps the cast to int64 defined (end - start can overflow a double).
  KILN_CHECK(n >= 0 && n < 9.2e18, Runtime, "invalid size, possible overflow?");
  return {{int64_t(n)}};
}
template <bool HasStart>
void arange_kernel(const Args& a, std::vector<Tensor>& outs) {
  Range r = range_of(a, HasStart);
  visit_dtype(outs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = outs[0].data<T>();
    for (int64_t i = 0; i < outs[0].numel(); ++i) {
      double v = r.start + r.step * double(i);
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) p[i] = float_to_int<T>(v);
      else p[i] = static_cast<T>(static_cast<compute_t<T>>(v));
    }
  });
}

// start + step * i, computed in float64 and cast as the eager kernel does.
template <bool HasStart>
bool lower_arange(kir::Lowering& L) {
  const DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t)) return false;
  kir::Builder& b = L.b;
  const DType D = DType::Float64;
  kir::ExprId i = b.cast(L.index(0), D);
  L.set_out(0, HasStart ? b.binary(kir::Op::Add, L.scalar(0, D), b.binary(kir::Op::Mul, L.scalar(2, D), i)) : i);
  return true;
}

// ---- linspace, eye ------------------------------------------------------------------
std::vector<Shape> shape_linspace(const Args& a) {
  int64_t steps = a[2].to_int();
  KILN_CHECK(steps >= 0, Runtime, "number of steps must be non-negative");
  return {{steps}};
}
std::vector<DType> dtype_linspace(const Args& a) { return {arg_dtype_or(a, 3, kDefaultFloat)}; }
// PyTorch fills from both ends so the last element is exactly `end`.
void linspace_kernel(const Args& a, std::vector<Tensor>& outs) {
  int64_t steps = a[2].to_int();
  visit_dtype(outs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = std::conditional_t<std::is_floating_point_v<compute_t<T>>, compute_t<T>, double>;
    C start = C(a[0].to_double()), end = C(a[1].to_double());
    T* p = outs[0].data<T>();
    if (steps == 1) p[0] = static_cast<T>(start);
    if (steps <= 1) return;
    C step = (end - start) / C(steps - 1);
    int64_t half = steps / 2;
    for (int64_t i = 0; i < steps; ++i)
      p[i] = static_cast<T>(i < half ? start + step * C(i) : end - step * C(steps - i - 1));
  });
}

std::vector<Shape> shape_eye(const Args& a) {
  int64_t n = a[0].to_int(), m = a[1].is_none() ? n : a[1].to_int();
  KILN_CHECK(n >= 0, Runtime, "n must be greater or equal to 0, got ", n);
  KILN_CHECK(m >= 0, Runtime, "m must be greater or equal to 0, got ", m);
  return {{n, m}};
}
std::vector<DType> dtype_eye(const Args& a) { return {arg_dtype_or(a, 2, kDefaultFloat)}; }
void eye_kernel(const Args&, std::vector<Tensor>& outs) {
  Tensor& o = outs[0];
  fill_value(o, 0);
  visit_dtype(o.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = o.data<T>();
    for (int64_t i = 0; i < std::min(o.size(0), o.size(1)); ++i) p[i * o.size(1) + i] = static_cast<T>(1.0f);
  });
}

}  // namespace
}  // namespace ops

void register_creation_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Creation;
#define KILN_TAIL "*, ScalarType? dtype=None, bool requires_grad=False) -> Tensor"
  t.add({.schema_text = "zeros(int[] size, " KILN_TAIL, .kind = C, .shape = shape_zeros,
         .dtype = dtype_from_arg1, .kernel = const_kernel<0>});
  t.add({.schema_text = "ones(int[] size, " KILN_TAIL, .kind = C, .shape = shape_size_arg,
         .dtype = dtype_from_arg1, .kernel = const_kernel<1>});
  t.add({.schema_text = "empty(int[] size, " KILN_TAIL, .kind = C, .shape = shape_size_arg,
         .dtype = dtype_from_arg1, .kernel = const_kernel<0>});
  t.add({.schema_text = "full(int[] size, Scalar fill_value, " KILN_TAIL, .kind = C, .shape = shape_size_arg,
         .dtype = dtype_full, .kernel = full_kernel});
  t.add({.schema_text = "zeros_like(Tensor self, " KILN_TAIL, .kind = C, .shape = shape_like_self,
         .dtype = dtype_like, .kernel = const_like_kernel<0>});
  t.add({.schema_text = "ones_like(Tensor self, " KILN_TAIL, .kind = C, .shape = shape_like_self,
         .dtype = dtype_like, .kernel = const_like_kernel<1>});
  t.add({.schema_text = "empty_like(Tensor self, " KILN_TAIL, .kind = C, .shape = shape_like_self,
         .dtype = dtype_like, .kernel = const_like_kernel<0>});
  t.add({.schema_text = "full_like(Tensor self, Scalar fill_value, " KILN_TAIL, .kind = C,
         .shape = shape_like_self, .dtype = dtype_full_like, .kernel = full_kernel});
  t.add({.schema_text = "arange(Scalar end, " KILN_TAIL, .kind = C, .shape = shape_arange<false>,
         .dtype = dtype_arange<false>, .kernel = arange_kernel<false>, .lower = lower_arange<false>});
  t.add({.schema_text = "arange.start(Scalar start, Scalar end, Scalar step=1, " KILN_TAIL, .kind = C,
         .shape = shape_arange<true>, .dtype = dtype_arange<true>, .kernel = arange_kernel<true>,
         .lower = lower_arange<true>});
  t.add({.schema_text = "linspace(Scalar start, Scalar end, int steps, " KILN_TAIL, .kind = C,
         .shape = shape_linspace, .dtype = dtype_linspace, .kernel = linspace_kernel});
  t.add({.schema_text = "eye(int n, int? m=None, " KILN_TAIL, .kind = C, .shape = shape_eye, .dtype = dtype_eye,
         .kernel = eye_kernel});
#undef KILN_TAIL
}

// ---- typed wrappers ---------------------------------------------------------------
Tensor zeros(const Shape& s, DType d) { return invoke("zeros", {s, d}); }
Tensor ones(const Shape& s, DType d) { return invoke("ones", {s, d}); }
Tensor empty(const Shape& s, DType d) { return invoke("empty", {s, d}); }
Tensor full(const Shape& s, double v, OptDType d) { return invoke("full", {s, v, dtype_value(d)}); }
Tensor zeros_like(const Tensor& t, OptDType d) { return invoke("zeros_like", {t, dtype_value(d)}); }
Tensor ones_like(const Tensor& t, OptDType d) { return invoke("ones_like", {t, dtype_value(d)}); }
Tensor full_like(const Tensor& t, double v, OptDType d) { return invoke("full_like", {t, v, dtype_value(d)}); }
Tensor arange(double start, double end, double step, OptDType d) {
  return invoke("arange.start", {start, end, step, dtype_value(d)});
}
Tensor linspace(double start, double end, int64_t steps, OptDType d) {
  return invoke("linspace", {start, end, steps, dtype_value(d)});
}
Tensor eye(int64_t n, std::optional<int64_t> m, OptDType d) {
  return invoke("eye", {n, m ? Value(*m) : Value(), dtype_value(d)});
}

Tensor tensor_from(const std::vector<double>& data, const Shape& shape, DType dtype) {
  KILN_CHECK(int64_t(data.size()) == shape_numel(shape), Value, "tensor: ", data.size(),
             " values do not fill shape ", shape_str(shape));
  Tensor t = empty_tensor(shape, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data<T>();
    for (size_t i = 0; i < data.size(); ++i) p[i] = static_cast<T>(static_cast<compute_t<T>>(data[i]));
  });
  return t;
}

}  // namespace kiln
