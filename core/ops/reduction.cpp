// Reductions over one or more dims (negative allowed, keepdim): sum, mean,
// prod, max/min and their arg forms, var/std, all/any, plus the
// normalisations built on them (softmax, log_softmax, logsumexp).
#include <cmath>
#include <limits>

#include "core/kernels/reduce.h"
#include "core/autograd.h"
#include "core/float_math.h"
#include "core/lowering.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

using kernels::reduced_mask;
using kernels::reduced_shape;

// ---- arguments ------------------------------------------------------------------
// The dims a `dim` argument names: None or [] → every dim, an int → that one.
std::vector<bool> mask_from(int64_t ndim, const Value& dim) {
  if (dim.is_none()) return reduced_mask(ndim, nullptr);
  if (dim.is_int()) {
    Shape one{dim.to_int()};
    return reduced_mask(ndim, &one);
  }
  return reduced_mask(ndim, &dim.int_list());
}

// Where a schema keeps its `dim` and `keepdim` (-1: absent, i.e. all dims / false).
template <int DimArg>
std::vector<bool> mask_of(const Args& a) {
  int64_t nd = a[0].tensor().dim();
  return DimArg < 0 ? reduced_mask(nd, nullptr) : mask_from(nd, a[size_t(DimArg)]);
}
template <int KeepArg>
bool keepdim_of(const Args& a) {
  return KeepArg >= 0 && a[size_t(KeepArg)].to_bool();
}

template <int DimArg, int KeepArg>
std::vector<Shape> shape_reduce(const Args& a) {
  return {reduced_shape(a[0].tensor().sizes(), mask_of<DimArg>(a), keepdim_of<KeepArg>(a))};
}

// softmax keeps the shape; dim is checked here so that a traced call raises
// where it is made (inside the script's try), not when the graph runs.
std::vector<Shape> shape_softmax(const Args& a) {
  wrap_dim(a[1].to_int(), a[0].tensor().dim());
  return {a[0].tensor().sizes()};
}

// The reduced dims as a list, and how many elements each output reduces.
Shape dims_of(const std::vector<bool>& mask) {
  Shape dims;
  for (size_t d = 0; d < mask.size(); ++d)
    if (mask[d]) dims.push_back(int64_t(d));
  return dims;
}
int64_t count_of(const Shape& in, const std::vector<bool>& mask) {
  int64_t n = 1;
  for (size_t d = 0; d < in.size(); ++d)
    if (mask[d]) n *= in[d];
  return n;
}

// A reduced result (output or gradient) reshaped to keepdim form, so it
// broadcasts against the input.
Tensor keep(const Tensor& t, const Shape& in_sizes, const std::vector<bool>& mask) {
  Shape ks = reduced_shape(in_sizes, mask, true);
  return t.sizes() == ks ? t : reshape(t, ks);
}
Tensor expand_reduced_grad(const Tensor& g, const Shape& in_sizes, const std::vector<bool>& mask) {
  return expand(keep(g, in_sizes, mask), in_sizes);
}

Tensor wrapped(double v) { return scalar_tensor(v, DType::Float64, true); }
Tensor wrapped_int(int64_t v) { return scalar_tensor(double(v), DType::Int64, true); }

template <class C>
bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

// PyTorch's checks that a value-selecting reduction has something to select.
void check_nonempty_all(const Tensor& self, const char* fn) {
  KILN_CHECK(self.numel() != 0, Runtime, fn,
             ": Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
             "the 'dim' argument.");
}
void check_nonempty_dim(const Tensor& self, int64_t dim, const char* fn) {
  if (self.dim() == 0) return;
  KILN_CHECK(self.size(dim) != 0, Index, fn, ": Expected reduction dim ", dim, " to have non-zero size.");
}

// ---- accumulating reductions: sum, mean, prod --------------------------------------
// Floating results accumulate in double, integer ones in uint64 (wrapping
// like PyTorch's int64 arithmetic, without signed-overflow UB).
template <class Acc, bool Mean>
struct SumOp {
  Acc init() const { return Acc(0); }
  template <class C> void step(Acc& acc, C v, int64_t) const { acc += Acc(v); }
  template <class In> void step_contiguous(Acc& acc, const In* q, int64_t n, int64_t) const {
    acc += kernels::sum_contiguous<Acc>(q, n);
  }
  void combine(Acc& acc, const Acc& later) const { acc += later; }
  Acc finish(const Acc& acc, int64_t n) const { return Mean ? Acc(acc / Acc(n)) : acc; }
};
template <class Acc, bool>
struct ProdOp {
  Acc init() const { return Acc(1); }
  template <class C> void step(Acc& acc, C v, int64_t) const { acc *= Acc(v); }
  template <class In> void step_contiguous(Acc& acc, const In* q, int64_t n, int64_t) const {
    acc *= kernels::fold_contiguous<Acc>(q, n, Acc(1), [](Acc x, Acc y) { return Acc(x * y); });
  }
  void combine(Acc& acc, const Acc& later) const { acc *= later; }
  Acc finish(const Acc& acc, int64_t) const { return acc; }
};

// Runs Op over self into outs[0]: floating outputs through a double
// accumulator, integer ones through uint64. Inputs are first cast to the
// output dtype (as PyTorch does for dtype=) unless reading them directly is
// exact (any input into a floating output, integers into int64).
template <template <class, bool> class Op, bool Mean, int DimArg>
void accumulate_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];
  DType od = out.dtype();
  bool floating = is_floating(od);
  Tensor in = a[0].tensor();
  if (!floating && (od != DType::Int64 || is_floating(in.dtype()))) in = cast_to(in, od);
  auto plan = kernels::make_reduce_plan(in, mask_of<DimArg>(a));
  Tensor acc = od == DType::Float64 || od == DType::Int64
                   ? out
                   : empty_tensor(out.sizes(), floating ? DType::Float64 : DType::Int64);
  visit_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (floating) {
      kernels::reduce_loop<T>(in, plan, acc.data<double>(), Op<double, Mean>{});
    } else {
      kernels::reduce_loop<T>(in, plan, acc.data<int64_t>(), Op<uint64_t, Mean>{});
    }
  });
  if (!acc.is_same(out)) copy_cast(out, acc);
}

// sum/mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)
template <int DTypeArg>
std::vector<DType> dtype_sum(const Args& a) {
  if (!a[DTypeArg].is_none()) return {a[DTypeArg].dtype()};
  DType d = a[0].tensor().dtype();
  return {is_floating(d) ? d : DType::Int64};
}
std::vector<DType> dtype_mean(const Args& a) {
  DType d = a[3].is_none() ? a[0].tensor().dtype() : a[3].dtype();
  KILN_CHECK(is_floating(d), NotImplemented, "mean(): could not infer output dtype. ",
             a[3].is_none() ? "Input" : "Optional", " dtype must be either a floating point or complex dtype. Got: ",
             dtype_legacy_name(d));
  return {d};
}

std::vector<Tensor> grad_sum(const GradCtx& c) {
  const Shape& in = c.in_sizes[0];
  return {expand_reduced_grad(c.grad(), in, mask_from(int64_t(in.size()), c.args[1]))};
}
std::vector<Tensor> grad_mean(const GradCtx& c) {
  const Shape& in = c.in_sizes[0];
  auto mask = mask_from(int64_t(in.size()), c.args[1]);
  return {div(expand_reduced_grad(c.grad(), in, mask), wrapped_int(count_of(in, mask)))};
}

// d prod / d x_i = product of the other elements of x_i's slice along dim,
// computed without dividing by zero: with no zero it is prod / x_i, with one
// zero only that element gets the product of the rest, with more all are 0.
// Under create_graph the masks above are constants that cut the product of the
// others off from the zero elements; the exclusive products from both ends
// give it exactly with any zeros, as differentiable ops.
Tensor prod_others_exclusive(const Tensor& x, int64_t dim) {
  int64_t n = x.size(dim);
  Value dims = Value(Shape{dim});
  auto exclusive = [&](const Tensor& t) {
    Tensor shifted = cat({ones_like(narrow(t, dim, 0, 1)), narrow(t, dim, 0, n - 1)}, dim);
    return invoke("cumprod", {shifted, dim, Value()});
  };
  Tensor from_end = exclusive(invoke("flip", {x, dims}));
  return mul(exclusive(x), invoke("flip", {from_end, dims}));
}

Tensor prod_backward(const Tensor& g_keep, const Tensor& x, int64_t dim) {
  if (GradMode::enabled() && (x.requires_grad() || g_keep.requires_grad()) && x.size(dim) > 0)
    return mul(g_keep, prod_others_exclusive(x, dim));
  Tensor z = eq(x, wrapped(0));
  Tensor zeros_in_slice = sum(z, Shape{dim}, true);
  Tensor x_safe = where(z, wrapped(1), x);
  Tensor p_safe = prod(x_safe, dim, true);
  Tensor others = where(z, p_safe, div(p_safe, x_safe));
  Tensor valid = where(z, eq(zeros_in_slice, wrapped_int(1)), eq(zeros_in_slice, wrapped_int(0)));
  return mul(g_keep, where(valid, others, wrapped(0)));
}
// prod(Tensor self, *, ScalarType? dtype=None): the product of the flattened input.
std::vector<Tensor> grad_prod(const GradCtx& c) {
  const Tensor& x = c.in(0);
  Tensor flat = reshape(x, {x.numel()});
  return {reshape(prod_backward(reshape(c.grad(), {1}), flat, 0), x.sizes())};
}
// prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)
std::vector<Tensor> grad_prod_dim(const GradCtx& c) {
  const Tensor& x = c.in(0);
  if (x.dim() == 0) return {mul(c.grad(), ones_like(x))};
  int64_t dim = wrap_dim(c.args[1].to_int(), x.dim());
  auto mask = mask_from(x.dim(), c.args[1]);
  return {prod_backward(keep(c.grad(), x.sizes(), mask), x, dim)};
}

// ---- value-selecting reductions: max/min, amax/amin, argmax/argmin --------------------
// The running max (or min) of a slice; NaN wins, as in PyTorch.
template <class In, bool Max>
struct ExtremeOp {
  using C = compute_t<In>;
  C init() const {
    if constexpr (std::is_same_v<C, bool>) return !Max;
    else if constexpr (std::numeric_limits<C>::has_infinity)
      return Max ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
    else return Max ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max();
  }
  void step(C& acc, C v, int64_t) const {
    if (Max ? v > acc : v < acc) acc = v;
    else if (is_nan(v)) acc = v;
  }
  // A unit-stride run in independent lanes of selects, which vectorize where the sequential
  // step's branches would not (a row's amax ran 45x slower than PyTorch's). A lane that meets a
  // NaN keeps it, so a NaN anywhere still wins.
  template <class X>
  void step_contiguous(C& acc, const X* q, int64_t n, int64_t) const {
    constexpr int kLanes = 16;
    std::array<C, kLanes> part;
    part.fill(init());
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) {
        const C v = C(q[i + j]);
        const bool take = (Max ? v > part[size_t(j)] : v < part[size_t(j)]) || is_nan(v);
        part[size_t(j)] = take ? v : part[size_t(j)];
      }
    // The lanes merge without branches (a plain compare-select is a max/min instruction; NaNs are
    // tracked apart): step's branches, mispredicted on random rows, made rows of 32 19x slower
    // than PyTorch's.
    C m = acc;
    bool nan = is_nan(m);
    auto merge = [&](C v) {
      m = (Max ? v > m : v < m) ? v : m;
      nan |= is_nan(v);
    };
    for (const C& p : part) merge(p);
    for (; i < n; ++i) merge(C(q[i]));
    if constexpr (std::is_floating_point_v<C>) acc = nan ? std::numeric_limits<C>::quiet_NaN() : m;
    else acc = m;
  }
  C finish(const C& acc, int64_t) const { return acc; }
};

// The extreme value and the index where it first occurs (first NaN if any).
template <class In, bool Max>
struct ArgExtremeOp {
  using C = compute_t<In>;
  struct Acc {
    C value{};
    int64_t index = -1;
  };
  Acc init() const { return {}; }
  void step(Acc& acc, C v, int64_t i) const {
    if (acc.index >= 0 && is_nan(acc.value)) return;
    if (acc.index < 0 || (Max ? v > acc.value : v < acc.value) || is_nan(v)) acc = {v, i};
  }
  Acc finish(const Acc& acc, int64_t) const { return acc; }
};

template <bool Max, int DimArg>
void extreme_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  auto plan = kernels::make_reduce_plan(self, mask_of<DimArg>(a));
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::reduce_loop<T>(self, plan, outs[0].data<T>(), ExtremeOp<T, Max>{});
  });
}

// Writes the values (when wanted) and indices of ArgExtremeOp.
template <bool Max, int DimArg>
void arg_extreme(const Args& a, Tensor* values, const Tensor& indices) {
  const Tensor& self = a[0].tensor();
  auto plan = kernels::make_reduce_plan(self, mask_of<DimArg>(a));
  int64_t* idx = indices.data<int64_t>();
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* val = values ? values->data<T>() : nullptr;
    kernels::reduce_each<T>(self, plan, ArgExtremeOp<T, Max>{}, [&](int64_t o, const auto& r) {
      idx[o] = r.index;
      if (val) val[o] = static_cast<T>(r.value);
    });
  });
}
template <bool Max>
void max_dim_kernel(const Args& a, std::vector<Tensor>& outs) {
  arg_extreme<Max, 1>(a, &outs[0], outs[1]);
}
template <bool Max>
void argmax_kernel(const Args& a, std::vector<Tensor>& outs) {
  arg_extreme<Max, 1>(a, nullptr, outs[0]);
}

// max(Tensor self) / min(Tensor self)
template <bool Max>
std::vector<Shape> shape_extreme_all(const Args& a) {
  check_nonempty_all(a[0].tensor(), Max ? "max()" : "min()");
  return {{}};
}
// max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
template <bool Max>
std::vector<Shape> shape_extreme_dim(const Args& a) {
  const Tensor& self = a[0].tensor();
  check_nonempty_dim(self, wrap_dim(a[1].to_int(), self.dim()), Max ? "max()" : "min()");
  Shape s = shape_reduce<1, 2>(a)[0];
  return {s, s};
}
std::vector<DType> dtype_values_indices(const Args& a) { return {a[0].tensor().dtype(), DType::Int64}; }
// amax(Tensor self, int[1] dim=[], bool keepdim=False)
template <bool Max>
std::vector<Shape> shape_amax(const Args& a) {
  const Tensor& self = a[0].tensor();
  const char* fn = Max ? "amax()" : "amin()";
  if (self.numel() == 0) {
    const Shape& dims = a[1].int_list();
    if (dims.empty()) check_nonempty_all(self, fn);
    for (int64_t d : dims) KILN_CHECK(self.size(d) != 0, Index, fn, ": Expected reduction dim ", d,
                                      " to have non-zero size.");
  }
  return shape_reduce<1, 2>(a);
}
// argmax(Tensor self, int? dim=None, bool keepdim=False)
template <bool Max>
std::vector<Shape> shape_argmax(const Args& a) {
  const Tensor& self = a[0].tensor();
  const char* fn = Max ? "argmax()" : "argmin()";
  if (a[1].is_none()) {
    KILN_CHECK(self.numel() != 0, Index, fn, ": Expected reduction dim to be specified for input.numel() == 0.");
  } else {
    check_nonempty_dim(self, wrap_dim(a[1].to_int(), self.dim()), fn);
  }
  return shape_reduce<1, 2>(a);
}
template <bool Max>
std::vector<DType> dtype_argmax(const Args& a) {
  DType d = a[0].tensor().dtype();
  KILN_CHECK(d != DType::Bool, NotImplemented, Max ? "\"argmax_cpu\"" : "\"argmin_cpu\"",
             " not implemented for 'Bool'");
  return {DType::Int64};
}

// Gradient split evenly among the elements equal to the selected value of
// their slice (PyTorch's evenly_distribute_backward / amax backward).
Tensor distribute_evenly(const Tensor& g, const Tensor& x, const Tensor& result, const std::vector<bool>& mask) {
  Tensor hit = eq(x, keep(result, x.sizes(), mask));
  Tensor count = sum(hit, dims_of(mask), true);
  return div(mul(hit, keep(g, x.sizes(), mask)), count);
}
std::vector<Tensor> grad_extreme_all(const GradCtx& c) {
  const Tensor& x = c.in(0);
  return {distribute_evenly(c.grad(), x, c.out(0), reduced_mask(x.dim(), nullptr))};
}
std::vector<Tensor> grad_amax(const GradCtx& c) {
  const Tensor& x = c.in(0);
  return {distribute_evenly(c.grad(), x, c.out(0), mask_from(x.dim(), c.args[1]))};
}
// max.dim: the gradient goes to the returned index only (a one-hot mask
// from comparing an arange along dim with the indices).
std::vector<Tensor> grad_extreme_dim(const GradCtx& c) {
  const Shape& in = c.in_sizes[0];
  int64_t nd = int64_t(in.size());
  if (nd == 0) return {c.grad()};
  auto mask = mask_from(nd, c.args[1]);
  int64_t dim = wrap_dim(c.args[1].to_int(), nd);
  Shape along(size_t(nd), 1);
  along[size_t(dim)] = in[size_t(dim)];
  Tensor positions = reshape(arange(0, double(in[size_t(dim)]), 1, DType::Int64), along);
  Tensor hit = eq(positions, keep(c.out(1), in, mask));
  return {where(hit, keep(c.grad(), in, mask), wrapped(0))};
}

std::vector<Tensor> max_other(const Args& a) { return {maximum(a[0].tensor(), a[1].tensor())}; }
std::vector<Tensor> min_other(const Args& a) { return {minimum(a[0].tensor(), a[1].tensor())}; }

// ---- var / std ------------------------------------------------------------------------
// Welford's running mean and sum of squared deviations, in double. A
// unit-stride run is summarised in two passes (its mean, then its squared
// deviations: no division per element, which made batch_norm's statistics
// 1.4 GB/s) and merged as a partial (Chan, Golub and LeVeque's update).
template <bool Std>
struct MomentsOp {
  double correction;
  struct Acc {
    double n = 0, mean = 0, m2 = 0;
  };
  Acc init() const { return {}; }
  template <class C> void step(Acc& acc, C v, int64_t) const {
    double x = double(v);
    acc.n += 1;
    double delta = x - acc.mean;
    acc.mean += delta / acc.n;
    acc.m2 += delta * (x - acc.mean);
  }
  template <class In> void step_contiguous(Acc& acc, const In* q, int64_t n, int64_t) const {
    if (n == 0) return;
    const double mean = kernels::sum_contiguous<double>(q, n) / double(n);
    double m2 = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double d = double(compute_t<In>(q[i])) - mean;
      m2 += d * d;
    }
    combine(acc, Acc{double(n), mean, m2});
  }
  void combine(Acc& acc, const Acc& later) const {
    if (later.n == 0) return;
    if (acc.n == 0) {
      acc = later;
      return;
    }
    const double n = acc.n + later.n, delta = later.mean - acc.mean;
    acc.mean += delta * (later.n / n);
    acc.m2 += later.m2 + delta * delta * (acc.n * later.n / n);
    acc.n = n;
  }
  double finish(const Acc& acc, int64_t) const {
    double v = acc.m2 / std::max(0.0, acc.n - correction);
    return Std ? std::sqrt(v) : v;
  }
};

// var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)
double correction_of(const Value& v) { return v.is_none() ? 1.0 : v.to_double(); }
std::vector<DType> dtype_var(const Args& a) {
  DType d = a[0].tensor().dtype();
  KILN_CHECK(is_floating(d), NotImplemented, "std and var only support floating point and complex dtypes");
  return {d};
}
template <bool Std>
void moments_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  auto plan = kernels::make_reduce_plan(self, mask_of<1>(a));
  visit_floating(self.dtype(), Std ? "std" : "var", [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::reduce_loop<T>(self, plan, outs[0].data<T>(), MomentsOp<Std>{correction_of(a[2])});
  });
}
// d var = 2 (x - mean) / (N - correction); d std = d var / (2 std).
template <bool Std>
std::vector<Tensor> grad_moments(const GradCtx& c) {
  const Tensor& x = c.in(0);
  auto mask = mask_from(x.dim(), c.args[1]);
  double denom = std::max(0.0, double(count_of(x.sizes(), mask)) - correction_of(c.args[2]));
  Tensor centered = sub(x, mean(x, dims_of(mask), true));
  Tensor g = keep(c.grad(), x.sizes(), mask);
  if (Std) return {div(mul(g, centered), mul(keep(c.out(0), x.sizes(), mask), denom))};
  return {mul(mul(g, centered), 2.0 / denom)};
}

// var(Tensor self, bool unbiased=True) and var.dim(Tensor self, int[1]? dim,
// bool unbiased=True, bool keepdim=False): the correction form with 0 or 1.
template <bool Std>
std::vector<Tensor> moments_unbiased(const Args& a) {
  return {invoke(Std ? "std.correction" : "var.correction", {a[0], Value(), int64_t(a[1].to_bool()), false})};
}
template <bool Std>
std::vector<Tensor> moments_dim_unbiased(const Args& a) {
  return {invoke(Std ? "std.correction" : "var.correction", {a[0], a[1], int64_t(a[2].to_bool()), a[3]})};
}

// ---- all / any ------------------------------------------------------------------------
template <bool All>
struct TruthOp {
  bool init() const { return All; }
  template <class C> void step(bool& acc, C v, int64_t) const {
    if (All) acc = acc && v != C(0);
    else acc = acc || v != C(0);
  }
  bool finish(bool acc, int64_t) const { return acc; }
};
template <bool All, int DimArg>
void truth_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  auto plan = kernels::make_reduce_plan(self, mask_of<DimArg>(a));
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::reduce_loop<T>(self, plan, outs[0].data<bool>(), TruthOp<All>{});
  });
}

// ---- logsumexp --------------------------------------------------------------------------
// Streaming log-sum-exp: the running max m and sum of exp(x - m), rescaled
// when m grows. An infinite max is the result itself (as PyTorch, which
// shifts by 0 there); NaN anywhere gives NaN.
struct LogSumExpOp {
  struct Acc {
    double max = -std::numeric_limits<double>::infinity(), sum = 0;
    bool nan = false;
  };
  Acc init() const { return {}; }
  template <class C> void step(Acc& acc, C v, int64_t) const {
    double x = double(v);
    if (std::isnan(x)) {
      acc.nan = true;
    } else if (x > acc.max) {
      acc.sum = std::isinf(x) ? 1.0 : acc.sum * std::exp(acc.max - x) + 1.0;
      acc.max = x;
    } else if (std::isfinite(acc.max) && !std::isinf(x)) {
      acc.sum += std::exp(x - acc.max);
    }
  }
  // A unit-stride run in two passes that vectorize: its max in lanes, then the sum of exp(x -
  // max) in lanes of double, merged into the running pair. (The streaming step, a double exp
  // and branches per element, ran rows of 32 4x slower than PyTorch.)
  template <class X>
  void step_contiguous(Acc& acc, const X* q, int64_t n, int64_t) const {
    using C = compute_t<X>;
    if constexpr (!std::is_floating_point_v<C>) {
      for (int64_t i = 0; i < n; ++i) step(acc, C(q[i]), 0);
    } else {
      const ExtremeOp<X, true> max_op;
      C m = max_op.init();
      max_op.step_contiguous(m, q, n, 0);
      if (!std::isfinite(m)) return step(acc, m, 0);  // NaN, +inf, or a run of -inf
      constexpr int kLanes = 16;
      std::array<double, kLanes> part{};
      int64_t i = 0;
      for (; i + kLanes <= n; i += kLanes)
        for (int j = 0; j < kLanes; ++j) part[size_t(j)] += double(fmath::exp_of(C(q[i + j]) - m));
      double s = 0;
      for (double p : part) s += p;
      for (; i < n; ++i) s += double(fmath::exp_of(C(q[i]) - m));
      if (double(m) > acc.max) {
        acc.sum = acc.sum * std::exp(acc.max - double(m)) + s;
        acc.max = double(m);
      } else if (std::isfinite(acc.max)) {
        acc.sum += s * std::exp(double(m) - acc.max);
      }
    }
  }
  double finish(const Acc& acc, int64_t) const {
    if (acc.nan) return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(acc.max)) return acc.max;
    return acc.max + std::log(acc.sum);
  }
};
// logsumexp(Tensor self, int[1] dim, bool keepdim=False)
std::vector<DType> dtype_logsumexp(const Args& a) { return {to_float_type(a[0].tensor().dtype())}; }
void logsumexp_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  Tensor& out = outs[0];
  auto plan = kernels::make_reduce_plan(self, mask_of<1>(a));
  visit_dtype(self.dtype(), [&](auto in_tag) {
    using In = typename decltype(in_tag)::type;
    visit_floating(out.dtype(), "logsumexp", [&](auto out_tag) {
      using Out = typename decltype(out_tag)::type;
      kernels::reduce_loop<In>(self, plan, out.data<Out>(), LogSumExpOp{});
    });
  });
}
std::vector<Tensor> grad_logsumexp(const GradCtx& c) {
  const Tensor& x = c.in(0);
  auto mask = mask_from(x.dim(), c.args[1]);
  return {mul(keep(c.grad(), x.sizes(), mask), exp(sub(x, keep(c.out(0), x.sizes(), mask))))};
}

// ---- softmax / log_softmax -------------------------------------------------------------
// Both shift by the slice max (no overflow) and sum exp in double. The last
// dim is softmaxed row by row in passes that vectorize: the max in lanes
// (ExtremeOp), the exps into a buffer, their sum in lanes of double. (One
// loop with an ordered double sum ran a row of 32 4x slower than PyTorch.)
template <class T, bool Log>
void softmax_rows(const T* in, T* out, int64_t rows, int64_t len) {
  using C = compute_t<T>;
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(len, 1));
  parallel_for(0, rows, grain, [&](int64_t rb, int64_t re) {
    std::vector<C> buf(static_cast<size_t>(len));
    C* b = buf.data();
    const ExtremeOp<T, true> max_op;
    for (int64_t r = rb; r < re; ++r) {
      const T* src = in + r * len;
      T* dst = out + r * len;
      C mx = max_op.init();
      max_op.step_contiguous(mx, src, len, 0);
      for (int64_t i = 0; i < len; ++i) b[i] = fmath::exp_of(C(src[i]) - mx);
      const double total = kernels::sum_contiguous<double>(b, len);
      if (Log) {
        // PyTorch keeps a half or bfloat16 row's sum, and then its log, in the row's type.
        C log_total = C(std::log(total));
        if constexpr (!std::is_same_v<T, C>) log_total = C(T(std::log(C(T(C(total))))));
        for (int64_t i = 0; i < len; ++i) dst[i] = T((C(src[i]) - mx) - log_total);
      } else {
        const C scale = C(1.0 / total);
        for (int64_t i = 0; i < len; ++i) dst[i] = T(b[i] * scale);
      }
    }
  });
}

// Any other dim, on the input viewed as [outer, len, inner]: blocks of
// neighbouring columns are processed together so reads stay contiguous. Each
// column sums its exps in order in the compute type, as PyTorch's kernel (one
// column per vector lane) does; softmax stores the exps in the output's type
// before dividing, as PyTorch's does in its output buffer.
template <class T, bool Log>
void softmax_columns(const T* in, T* out, int64_t outer, int64_t len, int64_t inner) {
  using C = compute_t<T>;
  constexpr int64_t kBlock = 64;
  int64_t blocks = (inner + kBlock - 1) / kBlock;
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(len * std::min(inner, kBlock), 1));
  parallel_for(0, outer * blocks, grain, [&](int64_t wb, int64_t we) {
    std::array<C, kBlock> mx, total;
    for (int64_t item = wb; item < we; ++item) {
      int64_t o = item / blocks, j0 = (item % blocks) * kBlock, n = std::min(kBlock, inner - j0);
      const T* src = in + o * len * inner + j0;
      T* dst = out + o * len * inner + j0;
      mx.fill(-std::numeric_limits<C>::infinity());
      total.fill(C(0));
      for (int64_t l = 0; l < len; ++l)
        for (int64_t j = 0; j < n; ++j) {
          C x = C(src[l * inner + j]);
          if (x > mx[size_t(j)] || std::isnan(x)) mx[size_t(j)] = x;
        }
      for (int64_t l = 0; l < len; ++l)
        for (int64_t j = 0; j < n; ++j) {
          C e = std::exp(C(src[l * inner + j]) - mx[size_t(j)]);
          total[size_t(j)] += e;
          if (!Log) dst[l * inner + j] = T(e);
        }
      for (int64_t j = 0; j < n && Log; ++j) total[size_t(j)] = std::log(total[size_t(j)]);
      for (int64_t l = 0; l < len; ++l)
        for (int64_t j = 0; j < n; ++j) {
          T& d = dst[l * inner + j];
          d = Log ? T((C(src[l * inner + j]) - mx[size_t(j)]) - total[size_t(j)]) : T(C(d) / total[size_t(j)]);
        }
    }
  });
}

// softmax(Tensor self, int dim, ScalarType? dtype=None)
std::vector<DType> dtype_softmax(const Args& a) {
  return {a[2].is_none() ? a[0].tensor().dtype() : a[2].dtype()};
}
template <bool Log>
void softmax_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  Tensor& out = outs[0];
  int64_t dim = wrap_dim(a[1].to_int(), self.dim());
  bool last = self.dim() == 0 || dim == self.dim() - 1;
  const char* name = Log ? (last ? "log_softmax_lastdim_kernel_impl" : "log_softmax_kernel_impl")
                         : (last ? "softmax_lastdim_kernel_impl" : "softmax_kernel_impl");
  Tensor in = self;
  if (in.dtype() != out.dtype() || !in.is_contiguous()) {
    in = empty_tensor(self.sizes(), out.dtype());
    copy_cast(in, self);
  }
  int64_t len = self.dim() == 0 ? 1 : self.size(dim), inner = 1;
  for (int64_t d = dim + 1; d < self.dim(); ++d) inner *= self.size(d);
  visit_floating(out.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (out.numel() == 0) return;
    int64_t outer = out.numel() / (len * inner);
    if (inner == 1) {
      softmax_rows<T, Log>(in.data<T>(), out.data<T>(), outer, len);
    } else {
      softmax_columns<T, Log>(in.data<T>(), out.data<T>(), outer, len, inner);
    }
  });
}
// softmax: y (g - sum(g y)); log_softmax: g - exp(y) sum(g), sums along dim.
std::vector<Tensor> grad_softmax(const GradCtx& c) {
  const Tensor &y = c.out(0), &g = c.grad();
  Shape dim{c.args[1].to_int()};
  return {mul(y, sub(g, sum(mul(g, y), dim, true)))};
}
std::vector<Tensor> grad_log_softmax(const GradCtx& c) {
  const Tensor &y = c.out(0), &g = c.grad();
  Shape dim{c.args[1].to_int()};
  return {sub(g, mul(exp(y), sum(g, dim, true)))};
}


// ---- lowerings for the fused code generators (core/lowering.h) --------------------------
// Row reductions over the last dim. softmax shifts by the row max and sums
// exp in the tensor's own type across the vector's lanes (as PyTorch's
// vectorized CPU kernels do): a float64 accumulator would halve the vector
// width of the whole kernel, and exp, not memory, would bound it. sum and
// mean, memory-bound, accumulate float32 in double like the eager kernels.
using kir::ExprId;
using kir::Lowering;
using KOp = kir::Op;

DType accumulator(DType t) { return t == DType::Float32 ? DType::Float64 : t; }

template <bool Log>
bool lower_softmax(Lowering& L) {
  DType t = L.outs[0].dtype();
  if (!L.args[2].is_none() || !kir::lowerable_float(t) || L.args[0].tensor().dtype() != t) return false;
  if (!L.can_reduce(0, L.args[1].to_int())) return false;
  kir::Builder& b = L.b;
  ExprId x = L.tensor(0, t);
  ExprId shifted = b.binary(KOp::Sub, x, b.reduce(kir::ReduceOp::Max, x));
  ExprId e = b.unary(KOp::Exp, shifted);
  ExprId total = b.reduce(kir::ReduceOp::Sum, e);
  if (Log) {
    L.set_out(0, b.binary(KOp::Sub, shifted, b.unary(KOp::Log, total)));
  } else {
    L.set_out(0, b.binary(KOp::Mul, e, b.binary(KOp::Div, b.constant(1, t), total)));
  }
  return true;
}

// sum/mean over exactly the last dim of a float tensor, no dtype argument.
template <bool Mean>
bool lower_sum(Lowering& L) {
  DType t = L.outs[0].dtype();
  const Value& dims = L.args[1];
  if (!L.args[3].is_none() || !kir::lowerable_float(t) || L.args[0].tensor().dtype() != t) return false;
  if (dims.is_none() || dims.int_list().size() != 1 || !L.can_reduce(0, dims.int_list()[0])) return false;
  kir::Builder& b = L.b;
  DType acc = accumulator(t);
  ExprId total = b.reduce(kir::ReduceOp::Sum, b.cast(L.tensor(0, t), acc));
  if (Mean) total = b.binary(KOp::Div, total, L.row_length(acc));
  L.set_out(0, b.cast(total, t), true);
  return true;
}

template <kir::ReduceOp R>
bool lower_extreme(Lowering& L) {
  DType t = L.outs[0].dtype();
  const Shape& dims = L.args[1].int_list();
  if (!kir::lowerable_float(t) || dims.size() != 1 || !L.can_reduce(0, dims[0])) return false;
  L.set_out(0, L.b.reduce(R, L.tensor(0, t)), true);
  return true;
}

}  // namespace
}  // namespace ops

void register_reduction_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind R = OpKind::Reduction, C = OpKind::Composite;
  t.add({.schema_text = "sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = R, .shape = shape_reduce<1, 2>, .dtype = dtype_sum<3>,
         .kernel = accumulate_kernel<SumOp, false, 1>, .grad = grad_sum, .lower = lower_sum<false>});
  t.add({.schema_text = "mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = R, .shape = shape_reduce<1, 2>, .dtype = dtype_mean,
         .kernel = accumulate_kernel<SumOp, true, 1>, .grad = grad_mean, .lower = lower_sum<true>});
  t.add({.schema_text = "prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", .kind = R,
         .shape = shape_reduce<-1, -1>, .dtype = dtype_sum<1>, .kernel = accumulate_kernel<ProdOp, false, -1>,
         .grad = grad_prod, .saves = save_in(0)});
  t.add({.schema_text = "prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = R, .shape = shape_reduce<1, 2>, .dtype = dtype_sum<3>,
         .kernel = accumulate_kernel<ProdOp, false, 1>, .grad = grad_prod_dim, .saves = save_in(0)});

  t.add({.schema_text = "amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_amax<true>, .dtype = dtype_like_self, .kernel = extreme_kernel<true, 1>,
         .grad = grad_amax, .saves = save_in(0) | save_out(0), .lower = lower_extreme<kir::ReduceOp::Max>});
  t.add({.schema_text = "amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_amax<false>, .dtype = dtype_like_self, .kernel = extreme_kernel<false, 1>,
         .grad = grad_amax, .saves = save_in(0) | save_out(0), .lower = lower_extreme<kir::ReduceOp::Min>});
  t.add({.schema_text = "max(Tensor self) -> Tensor", .kind = R, .shape = shape_extreme_all<true>,
         .dtype = dtype_like_self, .kernel = extreme_kernel<true, -1>, .grad = grad_extreme_all,
         .saves = save_in(0) | save_out(0)});
  t.add({.schema_text = "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         .kind = R, .shape = shape_extreme_dim<true>, .dtype = dtype_values_indices, .kernel = max_dim_kernel<true>,
         .grad = grad_extreme_dim, .saves = save_out(1)});
  t.add({.schema_text = "max.other(Tensor self, Tensor other) -> Tensor", .kind = C, .shape = shape_broadcast_args,
         .dtype = dtype_promote, .composite = max_other});
  t.add({.schema_text = "min(Tensor self) -> Tensor", .kind = R, .shape = shape_extreme_all<false>,
         .dtype = dtype_like_self, .kernel = extreme_kernel<false, -1>, .grad = grad_extreme_all,
         .saves = save_in(0) | save_out(0)});
  t.add({.schema_text = "min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         .kind = R, .shape = shape_extreme_dim<false>, .dtype = dtype_values_indices,
         .kernel = max_dim_kernel<false>, .grad = grad_extreme_dim, .saves = save_out(1)});
  t.add({.schema_text = "min.other(Tensor self, Tensor other) -> Tensor", .kind = C, .shape = shape_broadcast_args,
         .dtype = dtype_promote, .composite = min_other});
  t.add({.schema_text = "argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_argmax<true>, .dtype = dtype_argmax<true>, .kernel = argmax_kernel<true>});
  t.add({.schema_text = "argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_argmax<false>, .dtype = dtype_argmax<false>, .kernel = argmax_kernel<false>});

  t.add({.schema_text = "var(Tensor self, bool unbiased=True) -> Tensor", .kind = C, .shape = shape_reduce<-1, -1>,
         .dtype = dtype_var, .composite = moments_unbiased<false>});
  t.add({.schema_text = "var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
         .kind = C, .shape = shape_reduce<1, 3>, .dtype = dtype_var, .composite = moments_dim_unbiased<false>});
  t.add({.schema_text = "var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
         .kind = R, .shape = shape_reduce<1, 3>, .dtype = dtype_var, .kernel = moments_kernel<false>,
         .grad = grad_moments<false>, .saves = save_in(0)});
  t.add({.schema_text = "std(Tensor self, bool unbiased=True) -> Tensor", .kind = C, .shape = shape_reduce<-1, -1>,
         .dtype = dtype_var, .composite = moments_unbiased<true>});
  t.add({.schema_text = "std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
         .kind = C, .shape = shape_reduce<1, 3>, .dtype = dtype_var, .composite = moments_dim_unbiased<true>});
  t.add({.schema_text = "std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
         .kind = R, .shape = shape_reduce<1, 3>, .dtype = dtype_var, .kernel = moments_kernel<true>,
         .grad = grad_moments<true>, .saves = save_in(0) | save_out(0)});

  t.add({.schema_text = "all(Tensor self) -> Tensor", .kind = R, .shape = shape_reduce<-1, -1>, .dtype = dtype_bool,
         .kernel = truth_kernel<true, -1>});
  t.add({.schema_text = "all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_reduce<1, 2>, .dtype = dtype_bool, .kernel = truth_kernel<true, 1>});
  t.add({.schema_text = "all.dims(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_reduce<1, 2>, .dtype = dtype_bool, .kernel = truth_kernel<true, 1>});
  t.add({.schema_text = "any(Tensor self) -> Tensor", .kind = R, .shape = shape_reduce<-1, -1>, .dtype = dtype_bool,
         .kernel = truth_kernel<false, -1>});
  t.add({.schema_text = "any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_reduce<1, 2>, .dtype = dtype_bool, .kernel = truth_kernel<false, 1>});
  t.add({.schema_text = "any.dims(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_reduce<1, 2>, .dtype = dtype_bool, .kernel = truth_kernel<false, 1>});

  t.add({.schema_text = "logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", .kind = R,
         .shape = shape_reduce<1, 2>, .dtype = dtype_logsumexp, .kernel = logsumexp_kernel,
         .grad = grad_logsumexp, .saves = save_in(0) | save_out(0)});
  t.add({.schema_text = "softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", .kind = R,
         .shape = shape_softmax, .dtype = dtype_softmax, .kernel = softmax_kernel<false>, .grad = grad_softmax,
         .saves = save_out(0), .lower = lower_softmax<false>});
  t.add({.schema_text = "log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", .kind = R,
         .shape = shape_softmax, .dtype = dtype_softmax, .kernel = softmax_kernel<true>,
         .grad = grad_log_softmax, .saves = save_out(0), .lower = lower_softmax<true>});
}

// ---- typed wrappers ---------------------------------------------------------------
namespace {
Value dims_value(const Dims& d) { return d ? Value(*d) : Value(); }
}  // namespace
Tensor sum(const Tensor& a, Dims dim, bool keepdim, OptDType dtype) {
  return invoke("sum", {a, dims_value(dim), keepdim, dtype_value(dtype)});
}
Tensor mean(const Tensor& a, Dims dim, bool keepdim, OptDType dtype) {
  return invoke("mean", {a, dims_value(dim), keepdim, dtype_value(dtype)});
}
Tensor prod(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  return dim ? invoke("prod.dim_int", {a, *dim, keepdim, Value()}) : invoke("prod", {a, Value()});
}
Tensor amax(const Tensor& a, const Shape& dim, bool keepdim) { return invoke("amax", {a, dim, keepdim}); }
Tensor amin(const Tensor& a, const Shape& dim, bool keepdim) { return invoke("amin", {a, dim, keepdim}); }
Tensor max(const Tensor& a) { return invoke("max", {a}); }
Tensor min(const Tensor& a) { return invoke("min", {a}); }
std::pair<Tensor, Tensor> max(const Tensor& a, int64_t dim, bool keepdim) {
  auto r = invoke_multi("max.dim", {a, dim, keepdim});
  return {r[0], r[1]};
}
std::pair<Tensor, Tensor> min(const Tensor& a, int64_t dim, bool keepdim) {
  auto r = invoke_multi("min.dim", {a, dim, keepdim});
  return {r[0], r[1]};
}
Tensor argmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  return invoke("argmax", {a, dim ? Value(*dim) : Value(), keepdim});
}
Tensor argmin(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  return invoke("argmin", {a, dim ? Value(*dim) : Value(), keepdim});
}
Tensor var(const Tensor& a, Dims dim, double correction, bool keepdim) {
  return invoke("var.correction", {a, dims_value(dim), correction, keepdim});
}
Tensor std(const Tensor& a, Dims dim, double correction, bool keepdim) {
  return invoke("std.correction", {a, dims_value(dim), correction, keepdim});
}
Tensor all(const Tensor& a, Dims dim, bool keepdim) { return invoke("all.dims", {a, dims_value(dim), keepdim}); }
Tensor any(const Tensor& a, Dims dim, bool keepdim) { return invoke("any.dims", {a, dims_value(dim), keepdim}); }
Tensor logsumexp(const Tensor& a, const Shape& dim, bool keepdim) {
  return invoke("logsumexp", {a, dim, keepdim});
}
Tensor softmax(const Tensor& a, int64_t dim, OptDType dtype) {
  return invoke("softmax", {a, dim, dtype_value(dtype)});
}
Tensor log_softmax(const Tensor& a, int64_t dim, OptDType dtype) {
  return invoke("log_softmax", {a, dim, dtype_value(dtype)});
}

Tensor sum_to(const Tensor& a, const Shape& shape) {
  int64_t lead = a.dim() - int64_t(shape.size());
  KILN_CHECK(lead >= 0, Runtime, "sum_to: cannot reduce ", a.shape_str(), " to ", shape_str(shape));
  Shape dims;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (d < lead) {
      dims.push_back(d);
    } else if (shape[size_t(d - lead)] == 1 && a.sizes()[size_t(d)] != 1) {
      dims.push_back(d);
    } else {
      KILN_CHECK(shape[size_t(d - lead)] == a.sizes()[size_t(d)], Runtime, "sum_to: cannot reduce ",
                 a.shape_str(), " to ", shape_str(shape));
    }
  }
  if (dims.empty()) return a.sizes() == shape ? a : reshape(a, shape);
  return reshape(sum(a, dims, true), shape);
}

}  // namespace kiln
