#include "tests/core/gradcheck.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/autograd.h"
#include "core/dispatch.h"
#include "core/ops.h"

namespace kiln::testing {

std::map<std::string, std::vector<GradSampleFn>>& grad_samples() {
  static std::map<std::string, std::vector<GradSampleFn>> m;
  return m;
}

bool register_grad_sample(const std::string& op, GradSampleFn fn) {
  grad_samples()[op].push_back(std::move(fn));
  return true;
}

Tensor grad_input(const Shape& shape, double lo, double hi, uint64_t seed) {
  std::vector<double> v(size_t(shape_numel(shape)));
  uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = lo + (hi - lo) * double(s >> 11) / double(1ull << 53);
  }
  Tensor t = tensor_from(v, shape, DType::Float64);
  t.requires_grad_(true);
  return t;
}

Tensor well_conditioned(Shape shape, uint64_t seed) {
  Tensor noise = grad_input(shape, -0.5, 0.5, seed).detach();
  Tensor m = add(noise, mul(eye(shape.back(), std::nullopt, DType::Float64), 3.0)).detach();
  m.requires_grad_(true);
  return m;
}

namespace {

// Ops that are differentiable in form but need no finite-difference sample:
// none today. Non-differentiable ops have grad == nullptr and are skipped.
bool needs_sample(const OpDef& op) {
  if (op.is_inplace()) return false;  // checked through their functional form
  // In-place composites (square_, index_fill_, scatter_) compose or copy their functional form's result.
  std::string_view base = std::string_view(op.name()).substr(0, op.name().find('.'));
  if (op.kind == OpKind::Composite && base.ends_with('_')) return false;
  if (op.kind == OpKind::Creation || op.kind == OpKind::Random) return false;
  // The random composites have no deterministic sample: random_() draws over
  // the whole dtype (its overwrite's zero gradient is random_.to's); normal's
  // derivative w.r.t. std is the draw itself, which finite differences cannot
  // see as each evaluation draws anew (the mean's is checked through
  // normal.Tensor_*); normal.float_float is a factory.
  static const std::set<std::string> kNonDifferentiableComposites = {
      "equal",   "allclose", "count_nonzero", "count_nonzero.dim_IntList", "bucketize", "nonzero.as_tuple", "where",
      "random_", "normal.float_Tensor", "normal.float_float", "logspace", "isclose", "isin", "argwhere",
      // Cholesky and eigh read one triangle of a symmetric input while their derivatives are the
      // symmetrised ones: lapack_test.cpp checks them through X X^T instead.
      "linalg_cholesky", "linalg_cholesky_ex", "linalg_eigvalsh",
      // Counts singular values.
      "linalg_matrix_rank",
      // Removed from PyTorch: it only raises.
      "qr",
      // Read one triangle, with PyTorch's derivative for every entry: linalg_legacy_test.cpp checks them.
      "cholesky_solve", "cholesky_inverse",
      // Factories and tests.
      "hann_window", "hamming_window", "bartlett_window", "blackman_window", "kaiser_window", "empty_strided",
      "is_nonzero", "isreal",
      // Counts, not differentiable in PyTorch.
      "histogram.bins_tensor", "histogram.bin_ct"};
  if (op.kind == OpKind::Composite) return !kNonDifferentiableComposites.count(op.name());
  // Cholesky's and eigh's kernel ops as linalg_cholesky above.
  if (op.name() == "_linalg_cholesky" || op.name() == "_linalg_cholesky_ex" || op.name() == "linalg_eigh") return false;
  return op.grad != nullptr;
}

double* element_ptr(const Tensor& t, int64_t linear) {
  int64_t off = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    off += (linear % t.sizes()[size_t(d)]) * t.strides()[size_t(d)];
    linear /= t.sizes()[size_t(d)];
  }
  return t.data<double>() + off;
}

// L = sum_i sum(out_i * w_i), with fixed weights so every output element counts differently.
double loss(const OpDef& op, const std::vector<Value>& args, const std::vector<Tensor>& w) {
  NoGradGuard ng;
  auto outs = dispatch(op, args);
  double l = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!is_floating(outs[i].dtype())) continue;
    l += sum(mul(to_dtype(outs[i], DType::Float64), w[i])).item_double();
  }
  return l;
}

void check_sample(const OpDef& op, std::vector<Value> raw, int sample_index) {
  SCOPED_TRACE(op.name() + " sample " + std::to_string(sample_index));
  std::vector<Value> args = bind_args(op.schema, raw, {}, true);
  std::vector<Tensor> outs = dispatch(op, args);
  std::vector<Tensor> w;
  Tensor total;
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor wi = grad_input(outs[i].sizes(), 0.5, 1.5, 100 + i).detach();
    w.push_back(wi);
    if (!is_floating(outs[i].dtype()) || !outs[i].requires_grad()) continue;
    Tensor term = sum(mul(outs[i], wi));
    total = total.defined() ? add(total, term) : term;
  }
  ASSERT_TRUE(total.defined()) << "no differentiable output";
  std::vector<Tensor> inputs;
  for (const Value& v : args) {
    if (v.is_tensor() && v.tensor().defined() && v.tensor().requires_grad()) inputs.push_back(v.tensor());
    if (v.is_tensor_list())
      for (const Tensor& t : v.tensor_list())
        if (t.requires_grad()) inputs.push_back(t);
  }
  for (Tensor t : inputs) t.set_grad(Tensor());
  total.backward();
  const double eps = 1e-6;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor& x = inputs[k];
    ASSERT_EQ(x.dtype(), DType::Float64) << "gradcheck inputs must be float64";
    ASSERT_TRUE(x.grad().defined()) << "input " << k << " received no gradient";
    ASSERT_EQ(x.grad().sizes(), x.sizes()) << "input " << k << " gradient shape";
    for (int64_t e = 0; e < x.numel(); ++e) {
      double* p = element_ptr(x, e);
      double orig = *p;
      *p = orig + eps;
      double lp = loss(op, args, w);
      *p = orig - eps;
      double lm = loss(op, args, w);
      *p = orig;
      double numeric = (lp - lm) / (2 * eps);
      double analytic = element_as_double(x.grad(), e);
      EXPECT_NEAR(analytic, numeric, 1e-5 + 1e-3 * std::abs(numeric)) << "input " << k << " element " << e;
    }
  }
}

TEST(GradCheck, EveryDifferentiableOpHasASample) {
  for (const OpDef* op : op_table().all()) {
    if (!needs_sample(*op)) continue;
    EXPECT_TRUE(grad_samples().count(op->name())) << "op '" << op->name() << "' has no KILN_GRAD_SAMPLE";
  }
}

TEST(GradCheck, AnalyticMatchesFiniteDifferences) {
  for (const auto& [name, samples] : grad_samples()) {
    const OpDef& op = op_table().get(name);
    for (size_t i = 0; i < samples.size(); ++i) check_sample(op, samples[i](), int(i));
  }
}

}  // namespace
}  // namespace kiln::testing
