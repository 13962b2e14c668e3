// Tests for layer norm, embedding and the losses: hand-computed values (from
// the definitions, in double), reductions, ignore_index, label smoothing,
// PyTorch's error wording, and gradient samples.
#include <cmath>

#include "core/autograd.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

Tensor I64(std::vector<double> v, Shape s = {}) { return T(std::move(v), std::move(s), DType::Int64); }

// ---- layer_norm ------------------------------------------------------------------------
TEST(LayerNorm, NormalisesLastDims) {
  Tensor x = T({1, 2, 3, 2, 4, 6}, {2, 3});
  EXPECT_TRUE(Near(layer_norm(x, {3}), {-1.2247357, 0, 1.2247357, -1.2247426, 0, 1.2247426}, {2, 3}));
  Tensor w = T({1, 2, 3}), b = T({0, 1, 0});
  EXPECT_TRUE(Near(layer_norm(x, {3}, w, b), {-1.2247357, 1, 3.6742071, -1.2247426, 1, 3.6742277}, {2, 3}));
  // Over both dims: one row of six values.
  Tensor all = layer_norm(x, {2, 3});
  EXPECT_NEAR(sum(all).item_double(), 0, 1e-5);
  EXPECT_NEAR(sum(mul(all, all)).item_double(), 6, 1e-3);
}

TEST(LayerNorm, StatisticsAndStridedInput) {
  Tensor x = transpose(T({1, 2, 2, 4, 3, 6}, {3, 2}), 0, 1);  // [[1,2,3],[2,4,6]], non-contiguous
  auto outs = native_layer_norm(x, {3}, {}, {}, 1e-5);
  EXPECT_TRUE(Near(outs[0], {-1.2247357, 0, 1.2247357, -1.2247426, 0, 1.2247426}, {2, 3}));
  EXPECT_TRUE(Near(outs[1], {2, 4}, {2, 1}));
  EXPECT_TRUE(Near(outs[2], {1.2247357, 0.6123713}, {2, 1}));
  Tensor d = layer_norm(to_dtype(x, DType::Float64), {3});
  EXPECT_EQ(d.dtype(), DType::Float64);
  EXPECT_TRUE(Near(d, {-1.2247356859083902, 0, 1.2247356859083902}, {2, 3}, 1e-12));
  EXPECT_EQ(layer_norm(to_dtype(x, DType::Float16), {3}).dtype(), DType::Float16);
}

TEST(LayerNorm, Errors) {
  EXPECT_KILN_ERROR(layer_norm(zeros({2, 3}), {4}),
                    "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]");
  EXPECT_KILN_ERROR(layer_norm(zeros({2, 3}), {3}, zeros({4})),
                    "Expected weight to be of same shape as normalized_shape, but got weight of shape [4] and "
                    "normalized_shape = [3]");
  EXPECT_KILN_ERROR(layer_norm(zeros({2, 3}), {3}, {}, zeros({2})),
                    "Expected bias to be of same shape as normalized_shape, but got bias of shape [2] and "
                    "normalized_shape = [3]");
  EXPECT_KILN_ERROR(layer_norm(zeros({2, 3}, DType::Int64), {3}), "\"LayerNormKernelImpl\" not implemented for 'Long'");
}

TEST(LayerNorm, BackwardSumsWeightAndBiasGradients) {
  Tensor x = grad_input({4, 3}), w = grad_input({3}, 0.5, 1.5, 2), b = grad_input({3}, -1, 1, 3);
  sum(layer_norm(x, {3}, w, b)).backward();
  EXPECT_TRUE(Near(b.grad(), {4, 4, 4}, {3}));
  // The normalised rows sum to zero, and a constant upstream gradient is removed by the centring.
  EXPECT_NEAR(sum(w.grad()).item_double(), 0, 1e-9);
  EXPECT_TRUE(Near(sum(x.grad(), Shape{1}), {0, 0, 0, 0}, {4}, 1e-9));
}

// ---- embedding -------------------------------------------------------------------------
TEST(Embedding, GathersRows) {
  Tensor w = T({0, 1, 2, 3, 4, 5}, {3, 2});
  EXPECT_TRUE(Near(embedding(w, I64({2, 0, 1, 1}, {2, 2})), {4, 5, 0, 1, 2, 3, 2, 3}, {2, 2, 2}));
  EXPECT_TRUE(Near(embedding(w, T({1}, {}, DType::Int32)), {2, 3}, {2}));
  EXPECT_TRUE(Near(embedding(transpose(T({0, 2, 4, 1, 3, 5}, {2, 3}), 0, 1), I64({2}, {1})), {4, 5}, {1, 2}));
  EXPECT_EQ(embedding(to_dtype(w, DType::Float64), I64({0})).dtype(), DType::Float64);
}

TEST(Embedding, Errors) {
  Tensor w = zeros({3, 2});
  EXPECT_KILN_ERROR(embedding(w, I64({3})), "index out of range in self");
  EXPECT_KILN_ERROR(embedding(w, I64({-1})), "index out of range in self");
  EXPECT_KILN_ERROR(embedding(w, T({0})),
                    "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                    "but got torch.FloatTensor instead (while checking arguments for embedding)");
  EXPECT_KILN_ERROR(embedding(zeros({3}), I64({0})), "'weight' must be 2-D");
}

TEST(Embedding, GradientScattersAndSkipsPadding) {
  Tensor w = grad_input({3, 2});
  Tensor out = embedding(w, I64({0, 2, 0, 1}), 2);
  sum(mul(out, T({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2}, DType::Float64))).backward();
  EXPECT_TRUE(Near(w.grad(), {6, 8, 7, 8, 0, 0}, {3, 2}));
  Tensor w2 = grad_input({3, 2});
  sum(embedding(w2, I64({0, 0, 1}), -1, true)).backward();  // scale_grad_by_freq: each row's grad / its count
  EXPECT_TRUE(Near(w2.grad(), {1, 1, 1, 1, 0, 0}, {3, 2}));
}

// ---- nll_loss / cross_entropy -------------------------------------------------------------
Tensor Logits() { return T({1, 2, 3, 1, -1, 0.5, 0, 0, 2}, {3, 3}); }

TEST(CrossEntropy, UniformLogitsGiveLogC) {
  EXPECT_TRUE(Near(cross_entropy(zeros({2, 4}), I64({0, 3})), {std::log(4.0)}, {}));
  EXPECT_TRUE(Near(cross_entropy(zeros({5}), I64({2}, {})), {std::log(5.0)}, {}));
}

TEST(CrossEntropy, Reductions) {
  Tensor x = Logits(), t = I64({2, 0, 1});
  EXPECT_TRUE(Near(cross_entropy(x, t), {1.0673692}, {}));
  EXPECT_TRUE(Near(cross_entropy(x, t, {}, "sum"), {3.2021077}, {}));
  EXPECT_TRUE(Near(cross_entropy(x, t, {}, "none"), {0.4076060, 0.5549569, 2.2395448}, {3}));
  Tensor w = T({1, 2, 3});
  EXPECT_TRUE(Near(cross_entropy(x, t, w), {1.0428107}, {}));
  EXPECT_TRUE(Near(cross_entropy(x, t, w, "none"), {1.2228179, 0.5549569, 4.4790895}, {3}));
  EXPECT_TRUE(Near(cross_entropy(to_dtype(x, DType::Float64), t), {1.0673692167694186}, {}, 1e-12));
  EXPECT_TRUE(Near(cross_entropy(transpose(transpose(x, 0, 1), 0, 1), t), {1.0673692}, {}));
}

TEST(CrossEntropy, IgnoreIndexLeavesTheMeansDenominator) {
  EXPECT_TRUE(Near(cross_entropy(Logits(), I64({2, -100, 1})), {1.3235754}, {}));
  EXPECT_TRUE(Near(cross_entropy(Logits(), I64({2, 1, 1}), {}, "mean", 1), {0.4076060}, {}));
  EXPECT_TRUE(Near(cross_entropy(Logits(), I64({2, -100, 1}), {}, "none"), {0.4076060, 0, 2.2395448}, {3}));
  EXPECT_TRUE(std::isnan(cross_entropy(Logits(), I64({-100, -100, -100})).item_double()));
}

TEST(CrossEntropy, LabelSmoothing) {
  Tensor x = Logits(), t = I64({2, 0, 1});
  EXPECT_TRUE(Near(cross_entropy(x, t, {}, "mean", -100, 0.1), {1.1062581}, {}));
  EXPECT_TRUE(Near(cross_entropy(x, t, {}, "none", -100, 0.1), {0.5076060, 0.6382903, 2.1728781}, {3}));
  EXPECT_TRUE(Near(cross_entropy(x, t, T({1, 2, 3}), "mean", -100, 0.1), {1.0647110}, {}));
  EXPECT_KILN_ERROR(cross_entropy(x, t, {}, "mean", -100, 1.5), "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
}

TEST(CrossEntropy, ProbabilityTargets) {
  Tensor p = T({0.2, 0.3, 0.5, 1, 0, 0, 0.1, 0.1, 0.8}, {3, 3});
  EXPECT_TRUE(Near(cross_entropy(Logits(), p), {0.7673692}, {}));
  EXPECT_TRUE(Near(cross_entropy(Logits(), p, {}, "none"), {1.1076060, 0.5549569, 0.6395448}, {3}));
}

TEST(CrossEntropy, SpatialTargets) {
  // [N=1, C=3, d=3]: the class dim is 1, so each column of Logits() is one sample.
  Tensor x = reshape(transpose(Logits(), 0, 1), {1, 3, 3});
  EXPECT_TRUE(Near(cross_entropy(x, I64({2, 0, 1}, {1, 3}), {}, "none"), {0.4076060, 0.5549569, 2.2395448}, {1, 3}));
  EXPECT_KILN_ERROR(nll_loss(x, I64({2, 0}, {1, 2})), "Expected target size [1, 3], got [1, 2]");
}

TEST(CrossEntropy, Errors) {
  EXPECT_KILN_ERROR(cross_entropy(zeros({2, 3}), I64({0, 5})), "Target 5 is out of bounds.");
  EXPECT_KILN_ERROR(cross_entropy(zeros({2, 3}), I64({0, -1})), "Target -1 is out of bounds.");
  EXPECT_KILN_ERROR(cross_entropy(zeros({3, 3}), I64({0, 1})),
                    "Expected input batch_size (3) to match target batch_size (2).");
  EXPECT_KILN_ERROR(cross_entropy(zeros({2, 3}), I64({0, 1}), {}, "avg"), "avg is not a valid value for reduction");
  EXPECT_KILN_ERROR(cross_entropy(zeros({2, 3}), I64({0, 1}), zeros({2})),
                    "weight tensor should be defined either for all 3 classes or no classes but got weight tensor of "
                    "shape: [2]");
  EXPECT_KILN_ERROR(nll_loss(zeros({2, 3}), T({0, 1}, {}, DType::Int32)), "expected target dtype to be Long or Byte, but got Int");
}

TEST(NllLoss, PicksNegatedTargetEntries) {
  Tensor x = T({-1, -2, -3, -4, -5, -6}, {2, 3});
  EXPECT_TRUE(Near(nll_loss(x, I64({2, 0})), {3.5}, {}));
  EXPECT_TRUE(Near(nll_loss(x, I64({2, 0}), {}, 2), {7}, {}));
  EXPECT_TRUE(Near(nll_loss(x, I64({2, 0}), {}, 0), {3, 4}, {2}));
  EXPECT_TRUE(Near(nll_loss(x, I64({2, 0}), T({1, 1, 3})), {(9 + 4) / 4.0}, {}));
  EXPECT_TRUE(Near(nll_loss(x, I64({2, 7}), {}, 1, 7), {3}, {}));
}

// ---- mse_loss -------------------------------------------------------------------------------
TEST(MseLoss, Reductions) {
  Tensor a = T({1, 2, 3}), b = T({2, 2, 5});
  EXPECT_TRUE(Near(mse_loss(a, b), {5.0 / 3}, {}));
  EXPECT_TRUE(Near(mse_loss(a, b, "sum"), {5}, {}));
  EXPECT_TRUE(Near(mse_loss(a, b, "none"), {1, 0, 4}, {3}));
  EXPECT_TRUE(Near(mse_loss(reshape(a, {3, 1}), T({0, 1}), "none"), {1, 0, 4, 1, 9, 4}, {3, 2}));
  EXPECT_KILN_ERROR(mse_loss(a, b, "avg"), "avg is not a valid value for reduction");
}

// ---- gradient samples -------------------------------------------------------------------------
KILN_GRAD_SAMPLE("native_layer_norm", {
  return {grad_input({2, 3, 4}), Shape{3, 4}, grad_input({3, 4}, 0.5, 1.5, 2), grad_input({3, 4}, -1, 1, 3), 1e-5};
});
KILN_GRAD_SAMPLE("native_layer_norm", { return {grad_input({3, 4}), Shape{4}, Value(), Value(), 1e-5}; });
KILN_GRAD_SAMPLE("layer_norm", {
  return {grad_input({2, 3, 4}), Shape{4}, grad_input({4}, 0.5, 1.5, 2), grad_input({4}, -1, 1, 3)};
});
KILN_GRAD_SAMPLE("layer_norm", { return {grad_input({3, 5}), Shape{5}}; });
KILN_GRAD_SAMPLE("layer_norm", { return {grad_input({3, 5}), Shape{5}, Value(), grad_input({5}, -1, 1, 3)}; });
KILN_GRAD_SAMPLE("embedding", { return {grad_input({4, 3}), I64({3, 0, 3, 1}, {2, 2})}; });
// padding_idx and scale_grad_by_freq change the gradient away from the true one (as in PyTorch), so the
// sample uses a padding row that is never looked up and no repeated index; GradientScattersAndSkipsPadding
// checks their effect.
KILN_GRAD_SAMPLE("embedding", { return {grad_input({4, 3}), I64({3, 0, 1}), 2, true}; });
KILN_GRAD_SAMPLE("nll_loss", { return {grad_input({3, 4}), I64({1, 3, 0})}; });
KILN_GRAD_SAMPLE("nll_loss", {
  return {grad_input({3, 4}), I64({1, 3, 1}), T({1, 2, 3, 4}, {}, DType::Float64), 0, -100};
});
KILN_GRAD_SAMPLE("nll_loss", { return {grad_input({3, 4}), I64({1, -100, 2}), Value(), 2, -100}; });
KILN_GRAD_SAMPLE("nll_loss", { return {grad_input({2, 3, 2}), I64({0, 2, 1, 1}, {2, 2})}; });
// The op under nll_loss: its total_weight output does not depend on self.
KILN_GRAD_SAMPLE("nll_loss_forward", {
  return {grad_input({3, 4}), I64({1, -100, 2}), T({1, 2, 3, 4}, {}, DType::Float64), 1, -100};
});
// The backward helpers: their derivatives are the second derivatives of embedding and nll_loss.
KILN_GRAD_SAMPLE("embedding_dense_backward", { return {grad_input({3, 2}), I64({3, 0, 3}), 4, -1, false}; });
KILN_GRAD_SAMPLE("embedding_dense_backward", {
  return {grad_input({2, 2, 3}), I64({0, 2, 1, 2}, {2, 2}), 4, 2, false};
});
KILN_GRAD_SAMPLE("nll_loss_grad", {
  return {grad_input({3}), I64({1, 3, 0}), Value(), Shape{3, 4}, 0, -100, T({3}, {}, DType::Float64)};
});
KILN_GRAD_SAMPLE("nll_loss_grad", {
  return {grad_input({}), I64({1, -100, 2}), T({1, 2, 3, 4}, {}, DType::Float64), Shape{3, 4}, 1, -100,
          T({5}, {}, DType::Float64)};
});
KILN_GRAD_SAMPLE("cross_entropy", { return {grad_input({3, 4}), I64({1, 3, 0})}; });
KILN_GRAD_SAMPLE("cross_entropy", {
  return {grad_input({3, 4}), I64({1, 3, -100}), T({1, 2, 3, 4}, {}, DType::Float64), "mean", -100, 0.2};
});
KILN_GRAD_SAMPLE("cross_entropy", { return {grad_input({4}), I64({2}, {}), Value(), "sum"}; });
KILN_GRAD_SAMPLE("cross_entropy", {
  return {grad_input({2, 3}), T({0.2, 0.3, 0.5, 1, 0, 0}, {2, 3}, DType::Float64), Value(), "mean", -100, 0.1};
});
KILN_GRAD_SAMPLE("mse_loss", { return {grad_input({2, 3}), grad_input({2, 3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("mse_loss", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2), "none"}; });

}  // namespace
}  // namespace kiln
