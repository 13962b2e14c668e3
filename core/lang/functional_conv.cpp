// torch.nn.functional for convolutional networks: conv1d/2d/3d, pooling,
// batch/group/instance norm, pad and dropout2d, bound onto the op table's
// entries (core/ops/conv.cpp, pool.cpp, norm.cpp) with F's argument names,
// order and defaults. pad's reflect/replicate/circular modes are index_select
// over computed indices, so autograd differentiates them.
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/device.h"
#include "core/dispatch.h"
#include "core/format.h"
#include "core/lang/functional_args.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"
#include "core/ops.h"
#include "core/ops/common.h"
#include "core/ops/spatial.h"
#include "core/ops_spatial.h"

namespace kiln::lang {
namespace {
using namespace fargs;

bool given(const Obj& v) { return !v.is_null() && !v.is_none(); }
Value val_or(const Obj& v, Value def) { return given(v) ? to_value(v) : def; }

Obj call(std::string_view name, std::initializer_list<Value> pos) {
  return call_op_obj(name, std::span<const Value>(pos.begin(), pos.size()));
}

// ---- convolution ------------------------------------------------------------------------------
// The op's name for ND spatial dims: "conv" + "3d".
template <int ND>
std::string nd_name(const char* base) {
  return base + std::to_string(ND) + "d";
}

template <int ND>
Obj f_conv(Interp&, const CallArgs& a) {
  const std::string name = nd_name<ND>("conv");
  auto b = bind(name.c_str(), a, {"input", "weight", "bias", "stride", "padding", "dilation", "groups"}, 2);
  return call(name, {to_value(b[0]), to_value(b[1]), val(b[2]), val_or(b[3], Value(Shape{1})),
                     val_or(b[4], Value(Shape{0})), val_or(b[5], Value(Shape{1})), val_or(b[6], Value(int64_t(1)))});
}

// ---- pooling ------------------------------------------------------------------------------------
template <int ND>
Obj f_max_pool(Interp& in, const CallArgs& a) {
  const std::string name = nd_name<ND>("max_pool");
  auto b = bind(name.c_str(), a,
                {"input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"}, 2);
  const std::string op = name + "_with_indices";
  return call(flag(in, b[6], false) ? op : name, {to_value(b[0]), to_value(b[1]), val_or(b[2], Value(Shape{})), val_or(b[3], Value(Shape{0})),
                     val_or(b[4], Value(Shape{1})), Value(flag(in, b[5], false))});
}

template <int ND>
Obj f_avg_pool(Interp& in, const CallArgs& a) {
  const std::string name = nd_name<ND>("avg_pool");
  auto b = bind(name.c_str(), a,
                {"input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"},
                2);
  return call(name, {to_value(b[0]), to_value(b[1]), val_or(b[2], Value(Shape{})), val_or(b[3], Value(Shape{0})),
                     Value(flag(in, b[4], false)), Value(flag(in, b[5], true)), val(b[6])});
}

Obj f_avg_pool1d(Interp& in, const CallArgs& a) {
  auto b = bind("avg_pool1d", a, {"input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"}, 2);
  return call("avg_pool1d", {to_value(b[0]), to_value(b[1]), val_or(b[2], Value(Shape{})),
                             val_or(b[3], Value(Shape{0})), Value(flag(in, b[4], false)), Value(flag(in, b[5], true))});
}

bool is_one_by_one(const Value& size) {
  if (size.is_int()) return size.to_int() == 1;
  return size.is_int_list() && std::ranges::all_of(size.int_list(), [](int64_t s) { return s == 1; });
}

// An adaptive pool's output_size: an int, or a tuple whose None entries keep the input's size.
Value adaptive_size(Interp& in, const Obj& size, const Tensor& x) {
  if (size.is_none() || size.is_number()) return to_value(size);
  Shape out;
  const int64_t n = len(in, size);
  for (int64_t i = 0; i < n; ++i) {
    Obj v = getitem(in, size, Obj::from_int(i));
    // None keeps the input's size in that dim (a wrong n is the op's to report).
    const int64_t dim = x.dim() - n + i;
    out.push_back(!v.is_none() ? to_index(in, v, "output_size") : dim >= 0 ? x.size(dim) : -1);
  }
  return Value(out);
}

template <int ND>
Obj f_adaptive_avg_pool(Interp& in, const CallArgs& a) {
  const std::string name = nd_name<ND>("adaptive_avg_pool");
  auto b = bind(name.c_str(), a, {"input", "output_size"}, 2);
  Value size = adaptive_size(in, b[1], tensor_of(b[0], name.c_str()));
  // ATen pools a plane (or volume) to 1x1 as a mean over it (MeanBackward1); the JIT then fuses
  // a CNN head's global average pooling as a reduction.
  // It checks no dims first: a 1-d input fails in the mean, as ours does.
  if (ND == 2 && is_one_by_one(size))
    return call("mean", {to_value(b[0]), Value(Shape{-1, -2}), Value(true)});
  if (ND == 3 && is_one_by_one(size))
    return call("mean", {to_value(b[0]), Value(Shape{-1, -2, -3}), Value(true)});
  return call(name, {to_value(b[0]), size});
}


template <int ND>
Obj f_adaptive_max_pool(Interp& in, const CallArgs& a) {
  const std::string name = nd_name<ND>("adaptive_max_pool");
  auto b = bind(name.c_str(), a, {"input", "output_size", "return_indices"}, 2);
  const Value args[] = {to_value(b[0]), adaptive_size(in, b[1], tensor_of(b[0], name.c_str()))};
  std::vector<Tensor> outs = call_op(name, args);
  if (flag(in, b[2], false)) return make_tuple({make_tensor(outs[0]), make_tensor(outs[1])});
  return make_tensor(outs[0]);
}

// ---- normalization -------------------------------------------------------------------------------
Obj f_batch_norm(Interp& in, const CallArgs& a) {
  auto b = bind("batch_norm", a,
                {"input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"}, 3);
  const Tensor& x = tensor_of(b[0], "batch_norm");
  const bool training = flag(in, b[5], false);
  if (training) {
    int64_t per_channel = x.dim() > 0 ? x.size(0) : 1;
    for (int64_t d = 2; d < x.dim(); ++d) per_channel *= x.size(d);
    KILN_CHECK(per_channel != 1, Value, "Expected more than 1 value per channel when training, got input size torch.Size(",
               shape_str(x.sizes()), ")");
  }
  return call("batch_norm", {to_value(b[0]), val(b[3]), val(b[4]), val(b[1]), val(b[2]), Value(training),
                             val_or(b[6], Value(0.1)), val_or(b[7], Value(1e-5)), Value(false)});
}

Obj f_group_norm(Interp&, const CallArgs& a) {
  auto b = bind("group_norm", a, {"input", "num_groups", "weight", "bias", "eps"}, 2);
  return call("group_norm", {to_value(b[0]), to_value(b[1]), val(b[2]), val(b[3]), val_or(b[4], Value(1e-5)),
                             Value(false)});
}

Obj f_instance_norm(Interp& in, const CallArgs& a) {
  auto b = bind("instance_norm", a,
                {"input", "running_mean", "running_var", "weight", "bias", "use_input_stats", "momentum", "eps"}, 1);
  return call("instance_norm", {to_value(b[0]), val(b[3]), val(b[4]), val(b[1]), val(b[2]),
                                Value(flag(in, b[5], true)), val_or(b[6], Value(0.1)), val_or(b[7], Value(1e-5)),
                                Value(false)});
}

// ---- pad ---------------------------------------------------------------------------------------------
// The source index of each output position along a dim of size n padded by (l, r).
Tensor pad_indices(const std::string& mode, int64_t n, int64_t l, int64_t r, int64_t dim, const Tensor& x) {
  if (mode == "reflect") {
    KILN_CHECK(l < n && r < n, Runtime, "Argument #4: Padding size should be less than the corresponding input "
               "dimension, but got: padding (", l, ", ", r, ") at dimension ", dim, " of input ", shape_str(x.sizes()));
  } else if (mode == "circular") {
    KILN_CHECK(l <= n && r <= n, Runtime, "Padding value causes wrapping around more than once.");
  }
  std::vector<double> idx;
  for (int64_t i = -l; i < n + r; ++i) {
    int64_t j = i;
    if (mode == "reflect") {
      j = i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i;
    } else if (mode == "replicate") {
      j = std::clamp<int64_t>(i, 0, n - 1);
    } else {
      j = ((i % n) + n) % n;
    }
    idx.push_back(double(j));
  }
  return move_to(tensor_from(idx, {int64_t(idx.size())}, DType::Int64), x.device());
}

Obj f_pad(Interp&, const CallArgs& a) {
  auto b = bind("pad", a, {"input", "pad", "mode", "value"}, 2);
  const Tensor& x = tensor_of(b[0], "pad");
  Shape pad = to_value(b[1]).int_list();
  std::string mode = given(b[2]) ? str_of(b[2], "mode") : "constant";
  // F.pad checks the lengths itself (constant_pad_nd's own words differ).
  KILN_CHECK(pad.size() % 2 == 0, Runtime, "Padding length must be divisible by 2");
  KILN_CHECK(int64_t(pad.size()) / 2 <= x.dim(), Runtime,
             "Padding length should be less than or equal to two times the input dimension but got padding length ",
             pad.size(), " and input of dimension ", x.dim());
  if (mode == "constant") return make_tensor(constant_pad_nd(x, pad, given(b[3]) ? b[3].as_number() : 0.0));
  KILN_CHECK(mode == "reflect" || mode == "replicate" || mode == "circular", NotImplemented,
             "Unrecognised padding mode ", mode);
  KILN_CHECK(!given(b[3]) || b[3].as_number() == 0, Value, "Padding mode \"", mode,
             "\" doesn't take in value argument");
  const int64_t dims = int64_t(pad.size()) / 2;
  KILN_CHECK(dims <= 3 && x.dim() >= dims + 1 && x.dim() <= dims + 2, NotImplemented, "Only 2D, 3D, 4D, 5D padding "
             "with non-constant padding are supported for now");
  Tensor y = x;
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t d = x.dim() - 1 - i;
    y = index_select(y, d, pad_indices(mode, x.size(d), pad[size_t(2 * i)], pad[size_t(2 * i + 1)], d, x));
  }
  // PyTorch's nodes: the reflection and replication kernels', and circular's last slice copy.
  static const std::string kDims[] = {"1D", "2D", "3D"};
  const std::string node = mode == "circular" ? "CopySlices"
                           : (mode == "reflect" ? "ReflectionPad" : "ReplicationPad") + kDims[dims - 1] + "Backward0";
  return make_tensor(ops::as_node(y, node.c_str()));
}

// ---- dropout2d ------------------------------------------------------------------------------------------
// Zeroes whole channels: a [N, C, 1, 1] (or [C, 1, 1]) Bernoulli mask scaled by 1/(1-p), as aten's feature dropout.
template <int ND>
Obj f_dropout_nd(Interp& in, const CallArgs& a) {
  const char* name = ND == 1 ? "dropout1d" : "dropout2d";
  auto b = bind(name, a, {"input", "p", "training", "inplace"}, 1);
  const Tensor& x = tensor_of(b[0], name);
  const double p = given(b[1]) ? b[1].as_number() : 0.5;
  KILN_CHECK(p >= 0 && p <= 1, Value, "dropout probability has to be between 0 and 1, but got ", format_double(p));
  KILN_CHECK(ND != 1 || x.dim() == 2 || x.dim() == 3, Runtime, "dropout1d: Expected 2D or 3D input, but received a ",
             x.dim(), "D input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
             "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).");
  if (!flag(in, b[2], true) || p == 0) return b[0];
  KILN_CHECK(x.dim() >= 2, Runtime, "Feature dropout requires at least 2 dimensions in the input");
  Shape s = x.sizes();
  // One draw per (sample, channel); dropout1d's unbatched (C, L) input is one
  // sample, while dropout2d reads a 3-D input as (N, C, L), as PyTorch does.
  for (size_t d = ND == 1 && x.dim() == 2 ? 1 : 2; d < s.size(); ++d) s[d] = 1;
  Tensor noise = move_to(empty(s, x.dtype()), x.device());
  Tensor mask = p == 1 ? zeros_like(noise) : div(bernoulli(noise, 1 - p), scalar_tensor(1 - p, DType::Float64, true));
  if (!flag(in, b[3], false)) return make_tensor(mul(x, mask));
  op("mul_", {x, mask});  // in place, as aten: the node saves the mask, not the overwritten input
  return b[0];
}


// ---- interpolate ------------------------------------------------------------------------------------------
// One spatial dim's resampling: its source indices and, for linear modes, the weight of the second one.
struct Resample {
  std::vector<double> i0, i1, w1;
};

// aten's area_pixel_compute_scale / source index rules, in float for float32 inputs as aten's CPU kernels.
enum class Rule { Nearest, NearestExact, Linear };

template <class S>
Resample resample_dim(int64_t in, int64_t out, std::optional<double> scale_factor, bool align_corners, Rule rule) {
  const bool linear = rule == Rule::Linear;
  S scale;
  if (linear && align_corners) {
    scale = out > 1 ? S(in - 1) / S(out - 1) : S(0);
  } else {
    scale = scale_factor && *scale_factor > 0 ? S(1.0 / *scale_factor) : S(in) / S(out);
  }
  Resample r;
  for (int64_t d = 0; d < out; ++d) {
    if (!linear) {  // nearest-exact samples at pixel centres
      const S at = rule == Rule::NearestExact ? (S(d) + S(0.5)) * scale : S(d) * scale;
      r.i0.push_back(double(std::min(int64_t(std::floor(at)), in - 1)));
      continue;
    }
    S src = align_corners ? scale * S(d) : std::max(scale * (S(d) + S(0.5)) - S(0.5), S(0));
    const int64_t h0 = int64_t(src), h1 = h0 + (h0 < in - 1 ? 1 : 0);
    r.i0.push_back(double(h0));
    r.i1.push_back(double(h1));
    r.w1.push_back(double(src - S(h0)));
  }
  return r;
}

Tensor index_tensor(const std::vector<double>& v, const Tensor& x) {
  return move_to(tensor_from(v, {int64_t(v.size())}, DType::Int64), x.device());
}

// Resamples dim `dim` of x: a gather (nearest) or the two-point blend (linear).
Tensor resample(const Tensor& x, int64_t dim, const Resample& r) {
  Tensor a = index_select(x, dim, index_tensor(r.i0, x));
  if (r.w1.empty()) return a;
  Tensor b = index_select(x, dim, index_tensor(r.i1, x));
  Shape s(size_t(x.dim() - dim), 1);
  s[0] = int64_t(r.w1.size());
  std::vector<double> w0(r.w1.size());
  for (size_t i = 0; i < w0.size(); ++i) w0[i] = 1.0 - r.w1[i];
  Tensor l1 = move_to(tensor_from(r.w1, s, x.dtype()), x.device());
  Tensor l0 = move_to(tensor_from(w0, s, x.dtype()), x.device());
  // aten computes 1 - lambda in the kernel's type: recompute it there.
  if (x.dtype() == DType::Float32) l0 = sub(ones_like(l1), l1);
  return add(mul(a, l0), mul(b, l1));
}

// Resampling one dim as a weighted sum over taps: output d is the sum over k
// of w[k][d] * x[idx[k][d]] (bicubic's four taps; antialias's filter support).
struct Taps {
  std::vector<std::vector<double>> idx, w;
  explicit Taps(size_t k) : idx(k), w(k) {}
};
using Cubic = Taps;
template <class S>
Cubic cubic_dim(int64_t in, int64_t out, std::optional<double> sf, bool align) {
  const S scale = align ? (out > 1 ? S(in - 1) / S(out - 1) : S(0)) : (sf && *sf > 0 ? S(1.0 / *sf) : S(in) / S(out));
  const S A = S(-0.75);
  auto near = [&](S x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };            // |x| <= 1
  auto far = [&](S x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };        // 1 < |x| < 2
  Cubic c(4);
  for (int64_t d = 0; d < out; ++d) {
    const S src = align ? scale * S(d) : scale * (S(d) + S(0.5)) - S(0.5);
    const int64_t i0 = int64_t(std::floor(src));
    const S t = src - S(i0);
    const S ws[4] = {far(t + 1), near(t), near(1 - t), far(2 - t)};
    for (int k = 0; k < 4; ++k) {
      c.idx[k].push_back(double(std::clamp<int64_t>(i0 - 1 + k, 0, in - 1)));
      c.w[k].push_back(double(ws[k]));
    }
  }
  return c;
}
// Antialiased bilinear/bicubic as aten's _upsample_*_aa: when shrinking, the
// filter (triangle, or Keys' cubic with a = -0.5) is stretched by the scale so
// every input pixel under it contributes; the weights of each output are
// normalized to sum to one, which also handles the edges.
enum class AaFilter { Triangle, Cubic, Lanczos3 };  // bilinear, bicubic, lanczos; the value + 1 is the radius
template <class S>
Taps antialias_dim(int64_t in, int64_t out, std::optional<double> sf, bool align, AaFilter kind) {
  const S scale = align ? (out > 1 ? S(in - 1) / S(out - 1) : S(0)) : (sf && *sf > 0 ? S(1.0 / *sf) : S(in) / S(out));
  const S half = S(int(kind) + 1);  // the filter's radius at scale 1: 1, 2 or 3
  const S support = scale >= S(1) ? half * scale : half;
  const S invscale = scale >= S(1) ? S(1) / scale : S(1);
  auto sinc = [](S x) { return x == S(0) ? S(1) : std::sin(S(M_PI) * x) / (S(M_PI) * x); };  // in the input type, as aten
  auto filter = [&](S x) {
    x = std::abs(x);
    if (kind == AaFilter::Triangle) return x < S(1) ? S(1) - x : S(0);
    if (kind == AaFilter::Lanczos3) return x < S(3) ? sinc(x) * sinc(x / S(3)) : S(0);
    const S a = S(-0.5);
    if (x < S(1)) return ((a + 2) * x - (a + 3)) * x * x + 1;
    if (x < S(2)) return (((x - 5) * x + 8) * x - 4) * a;
    return S(0);
  };
  std::vector<int64_t> lo(static_cast<size_t>(out), 0);
  std::vector<std::vector<S>> ws(static_cast<size_t>(out));
  size_t k = 1;
  for (int64_t d = 0; d < out; ++d) {
    const S center = scale * (S(d) + S(0.5));
    const int64_t xmin = std::max<int64_t>(int64_t(center - support + S(0.5)), 0);
    const int64_t xsize = std::min<int64_t>(int64_t(center + support + S(0.5)), in) - xmin;
    S total = 0;
    for (int64_t j = 0; j < xsize; ++j) {
      ws[size_t(d)].push_back(filter((S(j + xmin) - center + S(0.5)) * invscale));
      total += ws[size_t(d)].back();
    }
    if (total != S(0))
      for (S& w : ws[size_t(d)]) w /= total;
    lo[size_t(d)] = xmin;
    k = std::max(k, ws[size_t(d)].size());
  }
  Taps t(k);
  for (int64_t d = 0; d < out; ++d)
    for (size_t j = 0; j < k; ++j) {  // past its support a tap reads the window's first pixel with weight 0
      const bool inside = j < ws[size_t(d)].size();
      t.idx[j].push_back(double(lo[size_t(d)] + (inside ? int64_t(j) : 0)));
      t.w[j].push_back(inside ? double(ws[size_t(d)][j]) : 0.0);
    }
  return t;
}

// uint8 bilinear/bicubic as aten's fixed-point kernels (PIL's scheme): the
// taps of each output, in double, quantized to int16 at the finest precision
// that keeps the largest weight under 2^15.
struct FixedTaps {
  Taps taps{0};
  int precision = 0;
};

// Without antialias aten keeps the float path's taps (2 or 4 around the source
// index) but folds the weights of out-of-range taps onto the edge pixels.
Taps clamped_taps(int64_t in, int64_t out, double scale, bool align, bool cubic, double* wmax) {
  const int64_t n = cubic ? 4 : 2, support = n / 2;
  auto filter = [&](double x) {
    x = std::abs(x);
    if (!cubic) return x < 1 ? 1 - x : 0.0;
    const double a = -0.75;  // the float path's constant, not PIL's -0.5
    if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
    if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
    return 0.0;
  };
  Taps t(static_cast<size_t>(n));
  for (int64_t d = 0; d < out; ++d) {
    double src = align ? scale * double(d) : scale * (double(d) + 0.5) - 0.5;
    if (!cubic && src < 0) src = 0;
    const int64_t i0 = std::min(int64_t(std::floor(src)), in - 1);
    const double lambda = std::clamp(src - double(i0), 0.0, 1.0);
    const int64_t lo = i0 - support + 1, first = std::max<int64_t>(lo, 0);
    const int64_t size = std::clamp<int64_t>(std::min(i0 + support + 1, in) - first, 0, n);
    std::vector<double> ws(static_cast<size_t>(n), 0.0);
    int64_t slot = 0;
    for (int64_t j = 0; j < n; ++j) {  // taps left of 0 pile onto slot 0, right of in - 1 onto the last
      if (lo + j <= 0) slot = 0;
      else if (lo + j >= in - 1) slot = size - 1;
      ws[size_t(slot)] += filter(double(j + 1 - support) - lambda);
      *wmax = std::max(*wmax, ws[size_t(slot)]);  // aten's running maximum, partial sums included
      ++slot;
    }
    for (int64_t j = 0; j < n; ++j) {
      t.idx[size_t(j)].push_back(double(first + (j < size ? j : 0)));
      t.w[size_t(j)].push_back(j < size ? ws[size_t(j)] : 0.0);
    }
  }
  return t;
}

FixedTaps uint8_taps(int64_t in, int64_t out, std::optional<double> sf, bool align, bool cubic, bool antialias) {
  FixedTaps f;
  double wmax = 0;
  if (antialias) {
    f.taps = antialias_dim<double>(in, out, sf, align, cubic ? AaFilter::Cubic : AaFilter::Triangle);
    for (const auto& col : f.taps.w)
      for (double w : col) wmax = std::max(wmax, w);
  } else {
    const double scale = align ? (out > 1 ? double(in - 1) / double(out - 1) : 0.0)
                               : (sf && *sf > 0 ? 1.0 / *sf : double(in) / double(out));
    f.taps = clamped_taps(in, out, scale, align, cubic, &wmax);
  }
  while (f.precision < 22 && int(0.5 + wmax * double(1 << (f.precision + 1))) < (1 << 15)) ++f.precision;
  for (auto& col : f.taps.w)
    for (double& w : col) {
      const double v = w * double(1 << f.precision);
      w = double(int(v < 0 ? v - 0.5 : v + 0.5));  // rounded half away from zero, as aten
    }
  return f;
}

Tensor resample_cubic(const Tensor& x, int64_t dim, const Cubic& c) {
  Shape s(size_t(x.dim() - dim), 1);
  s[0] = int64_t(c.w[0].size());
  Tensor y;
  for (size_t k = 0; k < c.w.size(); ++k) {
    Tensor w = move_to(tensor_from(c.w[k], s, x.dtype()), x.device());
    Tensor term = mul(index_select(x, dim, index_tensor(c.idx[k], x)), w);
    y = y.defined() ? add(y, term) : term;
  }
  return y;
}

// One fixed-point pass over a float64 copy of the uint8 image: the integer sum
// (exact in double), plus half an LSB, shifted right, saturated to [0, 255].
Tensor resample_fixed(const Tensor& x, int64_t dim, const FixedTaps& f) {
  const double half = f.precision > 0 ? double(1 << (f.precision - 1)) : 0.0;
  Tensor sum = add(resample_cubic(x, dim, f.taps), half);
  return clamp(floor(mul(sum, 1.0 / double(1 << f.precision))), 0.0, 255.0);
}

// The scale factor or output size of spatial dim i of x: one number for every dim, or one each.
Obj per_dim(Interp& in, const Obj& v, int64_t i, const Tensor& x, bool size) {
  if (v.is_number()) return v;
  const int64_t nd = x.dim() - 2;
  Shape spatial;
  for (int64_t d = 2; d < x.dim(); ++d) spatial.push_back(x.size(d));
  KILN_CHECK(len(in, v) == nd, Value, "Input and ", size ? "output" : "scale_factor",
             " must have the same number of spatial dimensions, but got input with spatial dimensions of ",
             ops::spatial::list_str(spatial), " and ", size ? "output size of " : "scale_factor of shape ", repr(in, v),
             ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and ",
             size ? "output size in (o1, o2, ...,oK)" : "scale_factor in (s1, s2, ...,sK)", " format.");
  return getitem(in, v, Obj::from_int(i));
}

// PyTorch's node for each mode: upsample_<mode><n>d's.
const char* upsample_node(const std::string& mode, int64_t nd) {
  static const char* const kNearest[] = {"UpsampleNearest1DBackward0", "UpsampleNearest2DBackward0",
                                         "UpsampleNearest3DBackward0"};
  static const char* const kExact[] = {"UpsampleNearestExact1DBackward0", "UpsampleNearestExact2DBackward0",
                                       "UpsampleNearestExact3DBackward0"};
  if (mode == "nearest") return kNearest[nd - 1];
  if (mode == "nearest-exact") return kExact[nd - 1];
  if (mode == "linear") return "UpsampleLinear1DBackward0";
  if (mode == "bilinear") return "UpsampleBilinear2DBackward0";
  if (mode == "trilinear") return "UpsampleTrilinear3DBackward0";
  return "UpsampleBicubic2DBackward0";
}

Obj f_interpolate(Interp& in, const CallArgs& a) {
  auto b = bind("interpolate", a,
                {"input", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor", "antialias"}, 1);
  const Tensor& x = tensor_of(b[0], "interpolate");
  std::string mode = given(b[3]) ? str_of(b[3], "mode") : "nearest";
  const bool linear = mode == "bilinear" || mode == "linear" || mode == "trilinear", cubic = mode == "bicubic";
  const bool nearest = mode == "nearest" || mode == "nearest-exact", area = mode == "area";
  const bool lanczos = mode == "lanczos";
  // PyTorch reports an unknown mode with the rank error that ends its dispatch.
  auto rank_error = [&] {
    return Error(detail::cat("Input Error: Only 3D, 4D and 5D input Tensors supported (got ", x.dim(),
                             "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                             "nearest-exact (got ", mode, ")"),
                 ErrorKind::NotImplemented);
  };
  if (x.dim() < 3 || x.dim() > 5 || !(nearest || area || linear || cubic || lanczos)) throw rank_error();
  KILN_CHECK(!(given(b[4]) && !linear && !cubic && !lanczos), Value,
             "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear");
  KILN_CHECK(given(b[1]) != given(b[2]), Value, given(b[1]) ? "only one of size or scale_factor should be defined"
                                                            : "either size or scale_factor should be defined");
  const bool antialias = flag(in, b[6], false);
  KILN_CHECK(!antialias || ((mode == "bilinear" || cubic || lanczos) && x.dim() == 4), Value,
             "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input");
  if (lanczos && x.dim() == 4) {
    KILN_CHECK(!flag(in, b[4], false), Value, "Lanczos mode does not support align_corners=True");
    KILN_CHECK(antialias, Value, "Lanczos mode requires antialias=True");
  }
  if (lanczos && x.dim() != 4) throw rank_error();  // lanczos has only a 2-D kernel
  // recompute_scale_factor: the kernels derive the scale from the sizes, as if size had been given.
  const bool recompute = flag(in, b[5], false);
  const bool align = flag(in, b[4], false);
  const int64_t nd = x.dim() - 2;
  Shape out(static_cast<size_t>(nd), 0);
  std::vector<std::optional<double>> sf(static_cast<size_t>(nd));
  for (int64_t i = 0; i < nd; ++i) {
    if (given(b[1])) {
      out[size_t(i)] = to_index(in, per_dim(in, b[1], i, x, true), "size");
      continue;
    }
    const double f = per_dim(in, b[2], i, x, false).as_number();
    out[size_t(i)] = int64_t(std::floor(double(x.size(2 + i)) * f));
    if (!recompute) sf[size_t(i)] = f;
  }
  // Each interpolating mode has its input rank (PyTorch checks it after the sizes).
  const int64_t rank = mode == "linear" ? 3 : mode == "trilinear" ? 5 : 4;
  KILN_CHECK(!(linear || cubic) || x.dim() == rank, NotImplemented, "Got ", x.dim(), "D input, but ", mode,
             " mode needs ", rank, "D input");
  static const char* const kArea[] = {"adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d"};
  if (area) return call(kArea[nd - 1], {x, Value(out)});
  if (x.dtype() == DType::UInt8 && (mode == "bilinear" || cubic)) {
    // aten's uint8 kernels: fixed-point passes, the last dim first, each only where the size changes.
    Tensor y = to_dtype(x, DType::Float64);
    for (int64_t i = nd - 1; i >= 0; --i) {
      const int64_t dim = 2 + i;
      if (x.size(dim) == out[size_t(i)]) continue;
      y = resample_fixed(y, dim, uint8_taps(x.size(dim), out[size_t(i)], sf[size_t(i)], align, cubic, antialias));
    }
    y = to_dtype(y, DType::UInt8);
    const char* node = antialias ? (cubic ? "UpsampleBicubic2DAaBackward0" : "UpsampleBilinear2DAaBackward0")
                                 : upsample_node(mode, nd);
    return make_tensor(ops::as_node(y, node));
  }
  // Other integer images blend in float, each pass rounded half up.
  const bool int_blend = !is_floating(x.dtype()) && (linear || cubic || antialias);
  Tensor y = int_blend ? to_dtype(x, DType::Float32) : x;
  const double lo = x.dtype() == DType::UInt8 ? 0.0 : -std::ldexp(1.0, int(dtype_size(x.dtype())) * 8 - 1);
  const double hi = x.dtype() == DType::UInt8 ? 255.0 : -lo - 1;
  // Each pass stores integers, as aten's separable integer kernels do.
  auto store = [&](const Tensor& t) { return int_blend ? clamp(floor(add(t, 0.5)), lo, hi) : t; };
  for (int64_t i = nd - 1; i >= 0; --i) {  // the last dim first: aten's blend order
    const int64_t dim = 2 + i, len = x.size(dim), o = out[size_t(i)];
    const std::optional<double> f = sf[size_t(i)];
    const bool f64 = x.dtype() == DType::Float64;
    if (antialias) {
      const AaFilter kind = lanczos ? AaFilter::Lanczos3 : cubic ? AaFilter::Cubic : AaFilter::Triangle;
      y = store(resample_cubic(y, dim, f64 ? antialias_dim<double>(len, o, f, align, kind)
                                           : antialias_dim<float>(len, o, f, align, kind)));
      continue;
    }
    if (cubic) {
      y = store(resample_cubic(y, dim, f64 ? cubic_dim<double>(len, o, f, align) : cubic_dim<float>(len, o, f, align)));
      continue;
    }
    const Rule rule = linear ? Rule::Linear : mode == "nearest-exact" ? Rule::NearestExact : Rule::Nearest;
    y = store(resample(y, dim,
                       f64 ? resample_dim<double>(len, o, f, align, rule) : resample_dim<float>(len, o, f, align, rule)));
  }
  if (int_blend) y = to_dtype(y, x.dtype());
  if (antialias)
    return make_tensor(ops::as_node(y, lanczos ? "UpsampleLanczos2DAaBackward0"
                                       : cubic ? "UpsampleBicubic2DAaBackward0"
                                               : "UpsampleBilinear2DAaBackward0"));
  return make_tensor(ops::as_node(y, upsample_node(mode, nd)));
}

}  // namespace

void register_conv_functional(ModuleObj& f) {
  const std::pair<const char*, NativeFn> fns[] = {
      {"conv1d", f_conv<1>}, {"conv2d", f_conv<2>}, {"conv3d", f_conv<3>}, {"max_pool1d", f_max_pool<1>},
      {"max_pool2d", f_max_pool<2>}, {"max_pool3d", f_max_pool<3>},
      {"avg_pool1d", f_avg_pool1d}, {"avg_pool2d", f_avg_pool<2>}, {"avg_pool3d", f_avg_pool<3>},
      {"adaptive_avg_pool1d", f_adaptive_avg_pool<1>}, {"adaptive_avg_pool2d", f_adaptive_avg_pool<2>},
      {"adaptive_avg_pool3d", f_adaptive_avg_pool<3>}, {"adaptive_max_pool3d", f_adaptive_max_pool<3>},
      {"batch_norm", f_batch_norm}, {"group_norm", f_group_norm}, {"instance_norm", f_instance_norm},
      {"pad", f_pad}, {"dropout1d", f_dropout_nd<1>}, {"dropout2d", f_dropout_nd<2>}, {"interpolate", f_interpolate},
      {"adaptive_max_pool1d", f_adaptive_max_pool<1>}, {"adaptive_max_pool2d", f_adaptive_max_pool<2>}};
  for (const auto& [name, fn] : fns) f.attrs.set(name, make_builtin(name, fn));
}

}  // namespace kiln::lang
