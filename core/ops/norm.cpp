// Batch, group and instance normalization as Composites over the reduction
// and pointwise ops (autograd differentiates through them; grad_fn prints
// ATen's node names, instance_norm's being the view back from its
// batch_norm). batch_norm in training mode updates the running statistics in
// place, as aten does: the mean, and the unbiased variance.
#include <cmath>

#include "core/autograd.h"
#include "core/ops/spatial.h"

namespace kiln {
namespace ops {
namespace {
using namespace spatial;

// [C] viewed to broadcast along dim 1 of an input of `dim` dims.
Tensor channel_view(const Tensor& t, int64_t dim) {
  Shape s(size_t(dim), 1);
  s[1] = t.numel();
  return reshape(t, s);
}

// x * weight + bias per channel, each optional.
Tensor affine(Tensor y, const Tensor& w, const Tensor& b) {
  if (w.defined()) y = mul(y, channel_view(w, y.dim()));
  if (b.defined()) y = add(y, channel_view(b, y.dim()));
  return y;
}

void check_channels(const Tensor& t, const char* what, int64_t C) {
  KILN_CHECK(!t.defined() || t.numel() == C, Runtime, what, " should contain ", C, " elements not ", t.numel());
}

// stat <- (1 - momentum) * stat + momentum * value, outside the graph.
void blend_(const Tensor& stat, const Tensor& value, double momentum) {
  NoGradGuard guard;
  Tensor s = stat;
  copy_(s, add(mul(stat, 1 - momentum), mul(value.detach(), momentum)));
}

// batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var,
//            bool training, float momentum, float eps, bool cudnn_enabled)
std::vector<Tensor> batch_norm_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  Tensor w = opt_tensor(a[1]), b = opt_tensor(a[2]), rm = opt_tensor(a[3]), rv = opt_tensor(a[4]);
  KILN_CHECK(x.dim() >= 2, Runtime, "batch_norm: expected an input with at least 2 dims, got ", list_str(x.sizes()));
  const int64_t C = x.size(1);
  const bool training = a[5].to_bool();
  // PyTorch's order: eval mode's need for running stats, their sizes, then the affine ones.
  KILN_CHECK(training || rm.defined(), Runtime, "running_mean must be defined in evaluation mode");
  KILN_CHECK(training || rv.defined(), Runtime, "running_var must be defined in evaluation mode");
  check_channels(rm, "running_mean", C);
  check_channels(rv, "running_var", C);
  check_channels(w, "weight", C);
  check_channels(b, "bias", C);
  const double momentum = a[6].to_double(), eps = a[7].to_double();
  Shape dims{0};
  for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
  Tensor mu, v;
  if (training || !rm.defined() || !rv.defined()) {
    mu = mean(x, dims, true);
    v = var(x, dims, 0, true);
    if (training) {
      const int64_t n = x.numel() / std::max<int64_t>(C, 1);
      if (rm.defined()) blend_(rm, reshape(mu, {C}), momentum);
      if (rv.defined()) blend_(rv, mul(reshape(v, {C}), double(n) / double(std::max<int64_t>(n - 1, 1))), momentum);
    }
  } else {
    mu = channel_view(rm, x.dim());
    v = channel_view(rv, x.dim());
  }
  return {affine(mul(sub(x, mu), rsqrt(add(v, eps))), w, b)};
}

// group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05,
//            bool cudnn_enabled=True)
std::vector<Tensor> group_norm_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const int64_t G = a[1].to_int();
  KILN_CHECK(x.dim() >= 2, Runtime, "Expected at least 2 dimensions for input tensor but received ", x.dim());
  const int64_t N = x.size(0), C = x.size(1);
  KILN_CHECK(G > 0 && C % G == 0, Runtime,
             "Expected number of channels in input to be divisible by num_groups, but got input of shape ",
             list_str(x.sizes()), " and num_groups=", G);
  Tensor w = opt_tensor(a[2]), b = opt_tensor(a[3]);
  KILN_CHECK(!w.defined() || (w.dim() == 1 && w.numel() == C), Runtime,
             "Expected weight to be a vector of size equal to the number of channels in input, but got weight of "
             "shape ", list_str(w.sizes()), " and input of shape ", list_str(x.sizes()));
  KILN_CHECK(!b.defined() || (b.dim() == 1 && b.numel() == C), Runtime,
             "Expected bias to be a vector of size equal to the number of channels in input, but got bias of "
             "shape ", list_str(b.sizes()), " and input of shape ", list_str(x.sizes()));
  Tensor xg = reshape(x, {N, G, -1});
  Tensor mu = mean(xg, Shape{2}, true), v = var(xg, Shape{2}, 0, true);
  Tensor y = reshape(mul(sub(xg, mu), rsqrt(add(v, a[4].to_double()))), x.sizes());
  return {affine(y, w, b)};
}

// instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var,
//               bool use_input_stats, float momentum, float eps, bool cudnn_enabled)
std::vector<Tensor> instance_norm_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  Tensor w = opt_tensor(a[1]), b = opt_tensor(a[2]), rm = opt_tensor(a[3]), rv = opt_tensor(a[4]);
  KILN_CHECK(x.dim() >= 3, Runtime, "instance_norm: expected an input with at least 3 dims, got ",
             list_str(x.sizes()));
  const int64_t C = x.size(1);
  check_channels(w, "weight", C);
  check_channels(b, "bias", C);
  check_channels(rm, "running_mean", C);
  check_channels(rv, "running_var", C);
  const double momentum = a[6].to_double(), eps = a[7].to_double();
  Shape dims;
  for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
  Tensor mu, v;
  if (a[5].to_bool()) {
    mu = mean(x, dims, true);
    v = var(x, dims, 0, true);
    const int64_t n = x.numel() / std::max<int64_t>(x.size(0) * C, 1);
    if (rm.defined()) blend_(rm, mean(reshape(mu, {x.size(0), C}), Shape{0}), momentum);
    if (rv.defined())
      blend_(rv, mul(mean(reshape(v, {x.size(0), C}), Shape{0}), double(n) / double(std::max<int64_t>(n - 1, 1))),
             momentum);
  } else {
    KILN_CHECK(rm.defined() && rv.defined(), Runtime,
               "Expected running_mean and running_var to be defined when use_input_stats is false");
    mu = channel_view(rm, x.dim());
    v = channel_view(rv, x.dim());
  }
  return {affine(mul(sub(x, mu), rsqrt(add(v, eps))), w, b)};
}

}  // namespace
}  // namespace ops

void register_norm_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
                        "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
         .kind = C, .composite = batch_norm_composite, .grad_node = "NativeBatchNormBackward0"});
  t.add({.schema_text = "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
                        "float eps=1e-05, bool cudnn_enabled=True) -> Tensor",
         .kind = C, .composite = group_norm_composite, .grad_node = "NativeGroupNormBackward0"});
  t.add({.schema_text = "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
                        "Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) "
                        "-> Tensor",
         .kind = C, .composite = instance_norm_composite, .grad_node = "ViewBackward0"});
}

// ---- typed wrappers ---------------------------------------------------------------
Tensor batch_norm(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
                  const Tensor& running_var, bool training, double momentum, double eps) {
  using ops::spatial::opt_value;
  return invoke("batch_norm", {x, opt_value(weight), opt_value(bias), opt_value(running_mean),
                               opt_value(running_var), training, momentum, eps, false});
}
Tensor group_norm(const Tensor& x, int64_t num_groups, const Tensor& weight, const Tensor& bias, double eps) {
  using ops::spatial::opt_value;
  return invoke("group_norm", {x, num_groups, opt_value(weight), opt_value(bias), eps, false});
}

}  // namespace kiln
