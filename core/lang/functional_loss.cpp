// torch.nn.functional losses and distances composed from ops (binary cross
// entropy, smooth L1 / Huber, KL divergence, the margin losses, cosine
// similarity, ...), each with ATen's formula so values agree to float rounding.
#include <cmath>

#include "core/autograd.h"
#include "core/format.h"
#include "core/lang/functional_args.h"
#include "core/lang/interp.h"
#include "core/ops/common.h"

namespace kiln::lang {
namespace {

using namespace fargs;

Tensor num(double v) { return scalar_tensor(v, DType::Float64, true); }
double number(const Obj& v, double def) { return v.is_null() ? def : v.as_number(); }
bool given(const Obj& v) { return !v.is_null() && !v.is_none(); }

std::string size_str(const Tensor& t) {
  std::string s = "torch.Size([";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "])";
}

// A loss PyTorch computes in one kernel: its result's node takes that
// kernel's name (grad_fn=<MseLossBackward0>), whatever the reduction.
Obj named_loss(const char* node, Tensor loss) { return make_tensor(ops::as_node(std::move(loss), node)); }

Obj f_binary_cross_entropy(Interp& in, const CallArgs& a) {
  auto b = bind("binary_cross_entropy", a, {"input", "target", "weight", "size_average", "reduce", "reduction"}, 2);
  std::string red = reduction_of(b, 3, 4, 5, in);
  const Tensor& x = input(b[0], "binary_cross_entropy");
  const Tensor& t = input(b[1], "binary_cross_entropy");
  KILN_CHECK(x.sizes() == t.sizes(), Value, "Using a target size (", size_str(t),
             ") that is different to the input size (", size_str(x), ") is deprecated. ",
             "Please ensure they have the same size.");
  if (x.numel() > 0)
    KILN_CHECK(min(x).item_double() >= 0 && max(x).item_double() <= 1, Runtime,
               "all elements of input should be between 0 and 1");
  // ATen: (t - 1) * max(log1p(-x), -100) - t * max(log(x), -100)
  Tensor loss = sub(mul(sub(t, num(1)), clamp(log1p(neg(x)), -100.0, std::nullopt)),
                    mul(t, clamp(log(x), -100.0, std::nullopt)));
  if (given(b[2])) loss = mul(loss, input(b[2], "binary_cross_entropy"));
  return named_loss("BinaryCrossEntropyBackward0", reduce(loss, red));
}

// PyTorch's stable form: (1 - t) x + lw (m + log(exp(-m) + exp(-x - m))), m = max(-x, 0),
// lw = 1 + (pos_weight - 1) t.
Obj f_bce_with_logits(Interp& in, const CallArgs& a) {
  const char* fn = "binary_cross_entropy_with_logits";
  auto b = bind(fn, a, {"input", "target", "weight", "size_average", "reduce", "reduction", "pos_weight"}, 2);
  std::string red = reduction_of(b, 3, 4, 5, in);
  const Tensor& x = input(b[0], fn);
  const Tensor& t = input(b[1], fn);
  KILN_CHECK(x.sizes() == t.sizes(), Value, "Target size (", size_str(t), ") must be the same as input size (",
             size_str(x), ")");
  Tensor m = clamp(neg(x), 0.0, std::nullopt);
  Tensor log_term = add(m, log(add(exp(neg(m)), exp(sub(neg(x), m)))));
  if (given(b[6])) log_term = mul(add(mul(sub(input(b[6], fn), num(1)), t), num(1)), log_term);
  Tensor loss = add(mul(sub(num(1), t), x), log_term);
  if (given(b[2])) loss = mul(loss, input(b[2], fn));
  return named_loss("BinaryCrossEntropyWithLogitsBackward0", reduce(loss, red));
}

Obj f_smooth_l1_loss(Interp& in, const CallArgs& a) {
  auto b = bind("smooth_l1_loss", a, {"input", "target", "size_average", "reduce", "reduction", "beta"}, 2);
  std::string red = reduction_of(b, 2, 3, 4, in);
  double beta = number(b[5], 1.0);
  KILN_CHECK(beta >= 0, Runtime, "smooth_l1_loss does not support negative values for beta.");
  Tensor z = abs(sub(input(b[0], "smooth_l1_loss"), input(b[1], "smooth_l1_loss")));
  if (beta == 0) return make_tensor(reduce(z, red));  // PyTorch hands beta 0 to l1_loss, a composite
  Tensor quad = div(mul(mul(z, 0.5), z), num(beta));
  return named_loss("SmoothL1LossBackward0", reduce(where(lt(z, num(beta)), quad, sub(z, num(0.5 * beta))), red));
}

Obj f_huber_loss(Interp&, const CallArgs& a) {
  auto b = bind("huber_loss", a, {"input", "target", "reduction", "delta"}, 2);
  std::string red = b[2].is_null() ? "mean" : str_of(b[2], "reduction");
  KILN_CHECK(red == "mean" || red == "sum" || red == "none", Value, red, " is not a valid value for reduction");
  double delta = number(b[3], 1.0);
  KILN_CHECK(delta > 0, Runtime, "huber_loss does not support non-positive values for delta.");
  Tensor z = abs(sub(input(b[0], "huber_loss"), input(b[1], "huber_loss")));
  Tensor quad = mul(mul(z, 0.5), z);
  Tensor lin = mul(sub(z, num(0.5 * delta)), delta);
  return named_loss("HuberLossBackward0", reduce(where(lt(z, num(delta)), quad, lin), red));
}

Obj f_kl_div(Interp& in, const CallArgs& a) {
  auto b = bind("kl_div", a, {"input", "target", "size_average", "reduce", "reduction", "log_target"}, 2);
  const Tensor& x = input(b[0], "kl_div");
  const Tensor& t = input(b[1], "kl_div");
  bool batchmean = !given(b[2]) && !given(b[3]) && !b[4].is_null() && str_of(b[4], "reduction") == "batchmean";
  std::string red = batchmean ? "sum" : reduction_of(b, 2, 3, 4, in);
  Tensor loss;
  if (flag(in, b[5], false)) {
    loss = mul(exp(t), sub(t, x));
  } else {
    // xlogy(t, t) - t * x, with 0 log 0 = 0
    Tensor xlogy = where(eq(t, num(0)), num(0), mul(t, log(t)));
    loss = sub(xlogy, mul(t, x));
  }
  Tensor r = reduce(loss, red);
  if (batchmean && x.dim() != 0) r = div(r, num(double(x.size(0))));
  return make_tensor(r);
}

// The dims of the two inputs after broadcasting.
int64_t out_dim(const Tensor& a, const Tensor& b) { return std::max(a.dim(), b.dim()); }

// ATen 2.x's formula: each input (broadcast together) over its 2-norm, the
// norm clamped to eps without a gradient, then the product summed along dim.
Obj f_cosine_similarity(Interp&, const CallArgs& a) {
  auto b = bind("cosine_similarity", a, {"x1", "x2", "dim", "eps"}, 2);
  const Tensor& x1 = input(b[0], "cosine_similarity");
  const Tensor& x2 = input(b[1], "cosine_similarity");
  int64_t dim = b[2].is_null() ? 1 : to_value(b[2]).to_int();
  double eps = number(b[3], 1e-8);
  int64_t n = out_dim(x1, x2);
  KILN_CHECK(dim >= -std::max<int64_t>(n, 1) && dim < std::max<int64_t>(n, 1), Index,
             "Dimension out of range (expected to be in range of [", -std::max<int64_t>(n, 1), ", ",
             std::max<int64_t>(n, 1) - 1, "], but got ", dim, ")");
  const Shape shape = ops::broadcast_shapes(x1.sizes(), x2.sizes());
  auto unit = [&](const Tensor& x) {
    Tensor xe = expand(x, shape);
    Tensor norm = clone(op("linalg_vector_norm", {xe, 2.0, Shape{dim}, true}));
    {
      NoGradGuard no_grad;
      clamp_(norm, eps, std::nullopt);
    }
    return div(xe, norm);
  };
  return make_tensor(sum(mul(unit(x1), unit(x2)), Shape{dim}));
}

// ||x1 - x2 + eps||_p over the last dim.
Tensor pnorm_last(const Tensor& d, double p, bool keepdim) {
  Shape dim{-1};
  if (std::isinf(p)) return p > 0 ? amax(abs(d), dim, keepdim) : amin(abs(d), dim, keepdim);
  if (p == 2) return sqrt(sum(mul(d, d), dim, keepdim));
  if (p == 1) return sum(abs(d), dim, keepdim);
  if (p == 0) return sum(to_dtype(ne(d, num(0)), d.dtype()), dim, keepdim);
  return pow(sum(pow(abs(d), p), dim, keepdim), 1.0 / p);
}

Obj f_pairwise_distance(Interp& in, const CallArgs& a) {
  auto b = bind("pairwise_distance", a, {"x1", "x2", "p", "eps", "keepdim"}, 2);
  const Tensor& x1 = input(b[0], "pairwise_distance");
  const Tensor& x2 = input(b[1], "pairwise_distance");
  double p = number(b[2], 2.0), eps = number(b[3], 1e-6);
  bool keepdim = flag(in, b[4], false);
  Tensor d = add(sub(x1, x2), eps);
  // ATen's norm(x1 - x2 + eps, p, -1): its node, NormBackward1.
  Tensor norm = out_dim(x1, x2) == 0 ? pnorm_last(reshape(d, Shape{1}), p, false) : pnorm_last(d, p, keepdim);
  return make_tensor(ops::as_node(norm, "NormBackward1"));
}

// triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, ...):
// max(margin + d(a, p) - d(a, n), 0) with d the pairwise distance (swap: d(a, n) may be d(p, n)).
Obj f_triplet_margin_loss(Interp& in, const CallArgs& a) {
  const char* fn = "triplet_margin_loss";
  auto b = bind(fn, a, {"anchor", "positive", "negative", "margin", "p", "eps", "swap", "size_average", "reduce",
                        "reduction"},
                3);
  std::string red = reduction_of(b, 7, 8, 9, in);
  const Tensor &x = input(b[0], fn), &pos = input(b[1], fn), &negv = input(b[2], fn);
  KILN_CHECK(x.dim() == pos.dim() && x.dim() == negv.dim(), Runtime,
             "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
             "got: anchor ", x.dim(), "D, positive ", pos.dim(), "D, and negative ", negv.dim(), "D inputs");
  const double p = number(b[4], 2.0), eps = number(b[5], 1e-6);
  auto dist = [&](const Tensor& u, const Tensor& v) { return pnorm_last(add(sub(u, v), eps), p, false); };
  Tensor d_pos = dist(x, pos), d_neg = dist(x, negv);
  if (flag(in, b[6], false)) d_neg = minimum(d_neg, dist(pos, negv));
  Tensor loss = clamp(add(sub(d_pos, d_neg), number(b[3], 1.0)), 0.0, std::nullopt);
  return make_tensor(reduce(loss, red));
}

Obj f_cosine_embedding_loss(Interp& in, const CallArgs& a) {
  const char* fn = "cosine_embedding_loss";
  auto b = bind(fn, a, {"input1", "input2", "target", "margin", "size_average", "reduce", "reduction"}, 3);
  std::string red = reduction_of(b, 4, 5, 6, in);
  const Tensor& x1 = input(b[0], fn);
  const Tensor& x2 = input(b[1], fn);
  const Tensor& t = input(b[2], fn);
  double margin = number(b[3], 0.0);
  KILN_CHECK(x1.dim() == 1 || x1.dim() == 2, Runtime, "1D target tensor expects 2D input tensors, but found inputs with sizes ",
             size_str(x1), " and ", size_str(x2), ".");
  Shape dim{x1.dim() == 2 ? 1 : 0};
  constexpr double kEps = 1e-12;
  Tensor prod = sum(mul(x1, x2), dim);
  Tensor m1 = add(sum(mul(x1, x1), dim), kEps);
  Tensor m2 = add(sum(mul(x2, x2), dim), kEps);
  Tensor cos = div(prod, sqrt(mul(m1, m2)));
  Tensor zero = zeros_like(cos);
  Tensor pos = where(eq(t, num(1)), sub(num(1), cos), zero);
  Tensor negl = where(eq(t, num(-1)), clamp(sub(cos, num(margin)), 0.0, std::nullopt), zero);
  return make_tensor(reduce(add(pos, negl), red));
}

Obj f_margin_ranking_loss(Interp& in, const CallArgs& a) {
  const char* fn = "margin_ranking_loss";
  auto b = bind(fn, a, {"input1", "input2", "target", "margin", "size_average", "reduce", "reduction"}, 3);
  std::string red = reduction_of(b, 4, 5, 6, in);
  const Tensor& t = input(b[2], fn);
  Tensor d = sub(input(b[0], fn), input(b[1], fn));
  Tensor loss = clamp(add(mul(neg(t), d), number(b[3], 0.0)), 0.0, std::nullopt);
  return make_tensor(reduce(loss, red));
}

Obj f_soft_margin_loss(Interp& in, const CallArgs& a) {
  auto b = bind("soft_margin_loss", a, {"input", "target", "size_average", "reduce", "reduction"}, 2);
  std::string red = reduction_of(b, 2, 3, 4, in);
  Tensor z = mul(neg(input(b[1], "soft_margin_loss")), input(b[0], "soft_margin_loss"));
  return named_loss("SoftMarginLossBackward0", reduce(log1p(exp(z)), red));
}

Obj f_hinge_embedding_loss(Interp& in, const CallArgs& a) {
  const char* fn = "hinge_embedding_loss";
  auto b = bind(fn, a, {"input", "target", "margin", "size_average", "reduce", "reduction"}, 2);
  std::string red = reduction_of(b, 3, 4, 5, in);
  const Tensor& x = input(b[0], fn);
  const Tensor& t = input(b[1], fn);
  Tensor zero = zeros_like(x);
  Tensor margin_part = where(ne(t, num(1)), clamp(sub(num(number(b[2], 1.0)), x), 0.0, std::nullopt), zero);
  Tensor self_part = where(ne(t, num(-1)), x, zero);
  return make_tensor(reduce(add(margin_part, self_part), red));
}

Obj f_poisson_nll_loss(Interp& in, const CallArgs& a) {
  const char* fn = "poisson_nll_loss";
  auto b = bind(fn, a, {"input", "target", "log_input", "full", "size_average", "eps", "reduce", "reduction"}, 2);
  std::string red = reduction_of(b, 4, 6, 7, in);
  const Tensor& x = input(b[0], fn);
  const Tensor& t = input(b[1], fn);
  Tensor loss = flag(in, b[2], true) ? sub(exp(x), mul(t, x)) : sub(x, mul(t, log(add(x, number(b[5], 1e-8)))));
  if (flag(in, b[3], false)) {
    // Stirling's term t log t - t + log(2 pi t) / 2, where t > 1.
    Tensor st = add(sub(mul(t, log(t)), t), mul(log(mul(t, 2 * M_PI)), 0.5));
    loss = add(loss, masked_fill(st, le(t, num(1)), 0.0));
  }
  return make_tensor(reduce(loss, red));
}

// var is clamped to eps without cutting its gradient, like PyTorch's no_grad clamp_ on a clone.
Obj f_gaussian_nll_loss(Interp& in, const CallArgs& a) {
  const char* fn = "gaussian_nll_loss";
  auto b = bind(fn, a, {"input", "target", "var", "full", "eps", "reduction"}, 3);
  const Tensor& x = input(b[0], fn);
  const Tensor& t = input(b[1], fn);
  Tensor var = input(b[2], fn);
  std::string red = b[5].is_null() ? "mean" : str_of(b[5], "reduction");
  KILN_CHECK(red == "mean" || red == "sum" || red == "none", Value, red, " is not a valid value for reduction");
  if (var.sizes() != x.sizes()) {
    Shape lead(x.sizes().begin(), x.sizes().end() - (x.dim() > 0 ? 1 : 0));
    Shape vlead(var.sizes().begin(), var.sizes().end() - (var.dim() > 0 ? 1 : 0));
    if (x.dim() > 0 && lead == var.sizes()) {
      var = unsqueeze(var, -1);
    } else {
      KILN_CHECK(x.dim() > 0 && lead == vlead && var.size(-1) == 1, Value, "var is of incorrect size");
    }
  }
  if (var.numel() > 0) KILN_CHECK(min(var).item_double() >= 0, Value, "var has negative entry/entries");
  double eps = number(b[4], 1e-6);
  Tensor lifted;
  {
    NoGradGuard ng;
    lifted = sub(clamp(var, eps, std::nullopt), var);
  }
  var = add(var, lifted);
  Tensor d = sub(x, t);
  Tensor loss = mul(add(log(var), div(mul(d, d), var)), 0.5);
  if (flag(in, b[3], false)) loss = add(loss, 0.5 * std::log(2 * M_PI));
  return make_tensor(reduce(loss, red));
}

}  // namespace

void add_loss_functions(ModuleObj& f) {
  const std::pair<const char*, NativeFn> fns[] = {
      {"binary_cross_entropy", f_binary_cross_entropy},
      {"binary_cross_entropy_with_logits", f_bce_with_logits},
      {"smooth_l1_loss", f_smooth_l1_loss},
      {"huber_loss", f_huber_loss},
      {"kl_div", f_kl_div},
      {"cosine_similarity", f_cosine_similarity},
      {"pairwise_distance", f_pairwise_distance},
      {"cosine_embedding_loss", f_cosine_embedding_loss},
      {"margin_ranking_loss", f_margin_ranking_loss}, {"triplet_margin_loss", f_triplet_margin_loss},
      {"soft_margin_loss", f_soft_margin_loss},
      {"hinge_embedding_loss", f_hinge_embedding_loss},
      {"poisson_nll_loss", f_poisson_nll_loss},
      {"gaussian_nll_loss", f_gaussian_nll_loss}};
  for (const auto& [name, fn] : fns) f.attrs.set(name, make_builtin(name, fn));
}

}  // namespace kiln::lang
