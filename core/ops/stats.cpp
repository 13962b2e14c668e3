// Statistics written as composites of reductions, sort and gather:
// std_mean / var_mean, aminmax, nansum / nanmean, quantile / nanquantile,
// cdist, dist and isclose; and histc, whose kernel bins the elements. (The
// lane scans cummax, cummin, logcumsumexp and mode live in scan.cpp.)
#include <algorithm>
#include <cmath>

#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

Dims dims_arg(const Value& v) { return v.is_none() ? Dims() : Dims(v.int_list()); }

// ---- moments, extremes, nan-reductions ------------------------------------------------------
// std_mean / var_mean: the std or var overload with the same arguments, and
// the mean over the same dims. Form: 0 (self, unbiased), 1 .dim, 2 .correction.
template <bool Std, int Form>
std::vector<Tensor> spread_mean_composite(const Args& a) {
  static constexpr const char* kOps[2][3] = {{"var", "var.dim", "var.correction"},
                                             {"std", "std.dim", "std.correction"}};
  Tensor spread = dispatch(op_table().get(kOps[Std][Form]), std::vector<Value>(a.begin(), a.end()))[0];
  const Tensor& x = a[0].tensor();
  return {spread, Form == 0 ? mean(x) : mean(x, dims_arg(a[1]), a[3].to_bool())};
}

// aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)
std::vector<Tensor> aminmax_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  Shape dims = a[1].is_none() ? Shape{} : Shape{a[1].to_int()};
  bool keep = a[2].to_bool();
  return {amin(x, dims, keep), amax(x, dims, keep)};
}

// nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None): NaN counts as zero.
Tensor nansum_of(const Args& a) {
  const Tensor& x = a[0].tensor();
  Tensor kept = is_floating(x.dtype()) ? masked_fill(x, isnan(x), 0.0) : x;
  return sum(kept, dims_arg(a[1]), a[2].to_bool(), opt_dtype(a[3]));
}
std::vector<Tensor> nansum_composite(const Args& a) { return {nansum_of(a)}; }
std::vector<Tensor> nanmean_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(is_floating(x.dtype()), Runtime,
             "nanmean(): expected input to have floating point or complex dtype but got ",
             dtype_legacy_name(x.dtype()));
  Tensor count = sum(logical_not(isnan(x)), dims_arg(a[1]), a[2].to_bool());
  return {div(nansum_of(a), count)};
}

// ---- quantile -------------------------------------------------------------------------------
enum class Interp { Linear, Lower, Higher, Midpoint, Nearest };
Interp interpolation(const std::string& s) {
  if (s == "linear") return Interp::Linear;
  if (s == "lower") return Interp::Lower;
  if (s == "higher") return Interp::Higher;
  if (s == "midpoint") return Interp::Midpoint;
  KILN_CHECK(s == "nearest", Runtime,
             "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got ", s);
  return Interp::Nearest;
}

// The output shape: q's length (if q is 1-D), then self reduced over dim (all dims without one).
Shape quantile_shape(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim) {
  Shape out;
  if (dim && self.dim() > 0) {
    out = self.sizes();
    int64_t d = wrap_dim(*dim, self.dim());
    if (keepdim) out[size_t(d)] = 1;
    else out.erase(out.begin() + d);
  } else if (keepdim) {
    out = Shape(size_t(self.dim()), 1);
  }
  if (q.dim() > 0) out.insert(out.begin(), q.numel());
  return out;
}

// PyTorch's algorithm: sort each lane (NaN last), rank q among its values
// (a lane with NaN ranks last for quantile; nanquantile counts only the
// numbers), and interpolate between the values either side of the rank.
Tensor quantile_of(const Tensor& self, const Tensor& q, const Args& a, bool ignore_nan) {
  std::optional<int64_t> dim = a[2].is_none() ? std::nullopt : std::optional<int64_t>(a[2].to_int());
  KILN_CHECK(self.numel() > 0, Runtime, "quantile() input tensor must be non-empty");
  KILN_CHECK(q.dim() <= 1, Runtime, "quantile() q must be a scalar or 1D tensor");
  KILN_CHECK(self.dtype() == DType::Float32 || self.dtype() == DType::Float64, Runtime,
             "quantile() input tensor must be either float or double dtype");
  KILN_CHECK(self.dtype() == q.dtype(), Runtime, "quantile() q tensor must be same dtype as the input tensor");
  Interp mode = interpolation(a[4].str());
  Shape out_shape = quantile_shape(self, q, dim, a[3].to_bool());
  Tensor lanes = dim && self.dim() > 0 ? invoke("movedim", {self, Shape{*dim}, Shape{-1}}) : flatten(self);
  Tensor sorted = invoke_multi("sort", {lanes, -1, false})[0];
  Tensor qs = reshape(q, {-1});
  Tensor ranks;
  if (ignore_nan) {
    Tensor count = sum(logical_not(isnan(sorted)), Shape{-1}, true);
    ranks = mul(qs, sub(count, scalar_tensor(1, DType::Int64, true)));
    ranks = masked_fill(ranks, lt(ranks, scalar_tensor(0, DType::Int64, true)), 0.0);
  } else {
    int64_t last = sorted.size(-1) - 1;
    Tensor nan_lane = any(isnan(sorted), Shape{-1}, true);
    ranks = where(nan_lane, scalar_tensor(double(last), DType::Int64, true), mul(qs, double(last)));
  }
  if (mode == Interp::Lower) ranks = floor(ranks);
  if (mode == Interp::Higher) ranks = ceil(ranks);
  if (mode == Interp::Nearest) ranks = round(ranks);  // half to even, as PyTorch
  Tensor below = to_dtype(ranks, DType::Int64);
  Tensor result = gather(sorted, -1, below);
  if (mode == Interp::Linear || mode == Interp::Midpoint) {
    Tensor w = mode == Interp::Midpoint ? full_like(ranks, 0.5) : sub(ranks, below);
    result = invoke("lerp.Tensor", {result, gather(sorted, -1, to_dtype(ceil(ranks), DType::Int64)), w});
  }
  result = q.dim() == 0 ? squeeze(result, Shape{-1}) : invoke("movedim", {result, Shape{-1}, Shape{0}});
  return reshape(result, out_shape);
}
template <bool IgnoreNan>
std::vector<Tensor> quantile_tensor_composite(const Args& a) {
  const Tensor& q = a[1].tensor();
  if (q.dim() <= 1 && q.numel() > 0) {
    bool in_range = all(logical_and(ge(q, scalar_tensor(0, DType::Int64, true)),
                                    le(q, scalar_tensor(1, DType::Int64, true)))).item_bool();
    KILN_CHECK(in_range, Runtime, "quantile() q values must be in the range [0, 1]");
  }
  return {quantile_of(a[0].tensor(), q, a, IgnoreNan)};
}
template <bool IgnoreNan>
std::vector<Tensor> quantile_scalar_composite(const Args& a) {
  double q = a[1].to_double();
  KILN_CHECK(q >= 0 && q <= 1, Runtime, "quantile() q must be in the range [0, 1] but got ", q);
  const Tensor& self = a[0].tensor();
  return {quantile_of(self, full({}, q, self.dtype()), a, IgnoreNan)};
}

// ---- distances ------------------------------------------------------------------------------
// cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None): the p-norm of
// every row difference, batch dims broadcast.
std::vector<Tensor> cdist_composite(const Args& a) {
  const Tensor &x1 = a[0].tensor(), &x2 = a[1].tensor();
  double p = a[2].to_double();
  KILN_CHECK(x1.dim() >= 2, Runtime, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  KILN_CHECK(x2.dim() >= 2, Runtime, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  KILN_CHECK(x1.size(-1) == x2.size(-1), Runtime, "X1 and X2 must have the same number of columns. X1: ",
             x1.size(-1), " X2: ", x2.size(-1));
  KILN_CHECK(is_floating(x1.dtype()), Runtime, "cdist only supports floating-point dtypes, X1 got: ",
             dtype_legacy_name(x1.dtype()));
  KILN_CHECK(is_floating(x2.dtype()), Runtime, "cdist only supports floating-point dtypes, X2 got: ",
             dtype_legacy_name(x2.dtype()));
  KILN_CHECK(p >= 0, Runtime, "cdist only supports non-negative p values");
  Tensor diff = sub(unsqueeze(x1, -2), unsqueeze(x2, -3));
  return {invoke("linalg_vector_norm", {diff, p, Shape{-1}, false, Value()})};
}
// dist(Tensor self, Tensor other, Scalar p=2): the p-norm of the difference.
std::vector<Tensor> dist_composite(const Args& a) {
  return {invoke("linalg_vector_norm", {sub(a[0].tensor(), a[1].tensor()), a[2], Value(), false, Value()})};
}

// isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
// equal, or |self - other| finite and within atol + |rtol * other|.
std::vector<Tensor> isclose_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  double rtol = a[2].to_double(), atol = a[3].to_double();
  KILN_CHECK(x.dtype() == y.dtype(), Runtime, dtype_legacy_name(x.dtype()), " did not match ",
             dtype_legacy_name(y.dtype()));
  KILN_CHECK(rtol >= 0, Runtime, "rtol must be greater than or equal to zero, but got ", rtol);
  KILN_CHECK(atol >= 0, Runtime, "atol must be greater than or equal to zero, but got ", atol);
  Tensor close = eq(x, y);
  if (a[4].to_bool() && is_floating(x.dtype())) close = logical_or(close, logical_and(isnan(x), isnan(y)));
  if (rtol == 0 && atol == 0) return {close};
  Tensor xf = x.dtype() == DType::Bool ? to_dtype(x, kDefaultFloat) : x;
  Tensor yf = y.dtype() == DType::Bool ? to_dtype(y, kDefaultFloat) : y;
  Tensor allowed = add(abs(mul(yf, rtol)), atol), actual = abs(sub(xf, yf));
  return {logical_or(close, logical_and(isfinite(actual), le(actual, allowed)))};
}

// ---- histc ----------------------------------------------------------------------------------
// histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0): counts in
// `bins` equal bins over [min, max] (the data's range when min == max);
// elements outside are ignored and max falls in the last bin.
std::vector<Shape> shape_histc(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(is_floating(self.dtype()), NotImplemented, "\"histogram_cpu\" not implemented for '",
             dtype_legacy_name(self.dtype()), "'");
  int64_t bins = a[1].to_int();
  KILN_CHECK(bins > 0, Runtime, "torch.histogram(): bins must be > 0, but got ", bins, " for dimension 0");
  // A given range is checked at the call (the kernel may run later, core/lazy.h);
  // min == max takes the data's range, which only the kernel knows.
  double lo = a[2].to_double(), hi = a[3].to_double();
  if (lo != hi) {
    KILN_CHECK(std::isfinite(lo) && std::isfinite(hi), Runtime, "torch.histc: range of [", lo, ", ", hi,
               "] is not finite");
    KILN_CHECK(lo < hi, Runtime, "torch.histc: max must be larger than min");
  }
  return {{bins}};
}
void histc_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t bins = a[1].to_int();
  std::vector<double> v = to_double_vector(self);
  double lo = a[2].to_double(), hi = a[3].to_double();
  if (lo == hi && !v.empty()) {
    lo = *std::min_element(v.begin(), v.end());
    hi = *std::max_element(v.begin(), v.end());
  }
  if (lo == hi) lo -= 1, hi += 1;
  KILN_CHECK(std::isfinite(lo) && std::isfinite(hi), Runtime, "torch.histc: range of [", lo, ", ", hi,
             "] is not finite");
  KILN_CHECK(lo < hi, Runtime, "torch.histc: max must be larger than min");
  visit_floating(self.dtype(), "histogram_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    T* h = outs[0].data<T>();
    std::fill(h, h + bins, T(0));
    // The edges as the input's type holds them; the bin by PyTorch's division in that type.
    const C left = C(T(lo)), right = C(T(hi));
    for (double d : v) {
      C e = C(T(d));
      if (!(e >= left && e <= right)) continue;
      int64_t pos = int64_t((e - left) * C(bins) / (right - left));
      if (pos == bins) --pos;
      h[pos] = T(C(h[pos]) + C(1));
    }
  });
}

}  // namespace
}  // namespace ops

void register_stats_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", .kind = C,
         .composite = spread_mean_composite<true, 0>, .grad_node = "StdMeanBackward0"});
  t.add({.schema_text = "std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
                        "(Tensor, Tensor)",
         .kind = C, .composite = spread_mean_composite<true, 1>, .grad_node = "StdMeanBackward0"});
  t.add({.schema_text = "std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
                        "bool keepdim=False) -> (Tensor, Tensor)",
         .kind = C, .composite = spread_mean_composite<true, 2>, .grad_node = "StdMeanBackward0"});
  t.add({.schema_text = "var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", .kind = C,
         .composite = spread_mean_composite<false, 0>, .grad_node = "VarMeanBackward0"});
  t.add({.schema_text = "var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
                        "(Tensor, Tensor)",
         .kind = C, .composite = spread_mean_composite<false, 1>, .grad_node = "VarMeanBackward0"});
  t.add({.schema_text = "var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
                        "bool keepdim=False) -> (Tensor, Tensor)",
         .kind = C, .composite = spread_mean_composite<false, 2>, .grad_node = "VarMeanBackward0"});
  t.add({.schema_text = "aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
         .kind = C, .composite = aminmax_composite, .grad_node = "AminmaxBackward0"});
  t.add({.schema_text = "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> "
                        "Tensor",
         .kind = C, .composite = nansum_composite, .grad_node = "NansumBackward0"});
  t.add({.schema_text = "nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> "
                        "Tensor",
         .kind = C, .composite = nanmean_composite});
  // The float overloads first: a Python number would otherwise become a
  // float64 tensor q (and fail the same-dtype check for float32 input).
  t.add({.schema_text = "quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
                        "str interpolation='linear') -> Tensor",
         .kind = C, .composite = quantile_scalar_composite<false>, .grad_node = "SqueezeBackward4"});
  t.add({.schema_text = "quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
                        "str interpolation='linear') -> Tensor",
         .kind = C, .composite = quantile_tensor_composite<false>, .grad_node = "SqueezeBackward4"});
  t.add({.schema_text = "nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
                        "str interpolation='linear') -> Tensor",
         .kind = C, .composite = quantile_scalar_composite<true>, .grad_node = "SqueezeBackward4"});
  t.add({.schema_text = "nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
                        "str interpolation='linear') -> Tensor",
         .kind = C, .composite = quantile_tensor_composite<true>, .grad_node = "SqueezeBackward4"});
  t.add({.schema_text = "cdist(Tensor x1, Tensor x2, float p=2.0, int? compute_mode=None) -> Tensor", .kind = C,
         .composite = cdist_composite, .grad_node = "CdistBackward0"});
  t.add({.schema_text = "dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", .kind = C,
         .composite = dist_composite, .grad_node = "DistBackward0"});
  t.add({.schema_text = "isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
                        "bool equal_nan=False) -> Tensor",
         .kind = C, .composite = isclose_composite});
  t.add({.schema_text = "histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
         .kind = OpKind::Shape, .shape = shape_histc, .dtype = dtype_like_self, .kernel = histc_kernel});
}

}  // namespace kiln
