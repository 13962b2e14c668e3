#include "core/autograd.h"
#include "core/ops.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::Near;
using testing::T;

TEST(Tensor, BroadcastAddPromotes) {
  Tensor a = T({1, 2, 3}, {3}, DType::Int64);
  Tensor b = T({0.5, 1.5}, {2, 1});
  Tensor c = add(a, b);
  EXPECT_EQ(c.dtype(), DType::Float32);
  EXPECT_TRUE(Near(c, {1.5, 2.5, 3.5, 2.5, 3.5, 4.5}, {2, 3}));
}

TEST(Tensor, BroadcastErrorNamesDimension) {
  EXPECT_KILN_ERROR(add(zeros({2, 3}), zeros({2, 4})),
                    "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
}

TEST(Tensor, AutogradSumOfSquares) {
  Tensor x = reshape(arange(0, 6, 1, DType::Float32), {2, 3});
  x.requires_grad_(true);
  Tensor y = sum(mul(x, x));
  y.backward();
  EXPECT_TRUE(Near(x.grad(), {0, 2, 4, 6, 8, 10}, {2, 3}));
}

TEST(Tensor, BroadcastGradientReduces) {
  Tensor x = T({1, 2, 3}).requires_grad_(true);
  Tensor y = ones({4, 3});
  sum(mul(x, y)).backward();
  EXPECT_TRUE(Near(x.grad(), {4, 4, 4}, {3}));
}

TEST(Tensor, InplaceOnLeafThatRequiresGradFails) {
  Tensor x = ones({3}).requires_grad_(true);
  EXPECT_KILN_ERROR(add_(x, ones({3})), "a leaf Variable that requires grad is being used in an in-place operation");
}

TEST(Tensor, VersionCounterCatchesModifiedSavedTensor) {
  Tensor x = ones({3}).requires_grad_(true);
  Tensor y = mul(x, 2.0);
  Tensor z = mul(y, y);
  add_(y, ones({3}));
  EXPECT_KILN_ERROR(sum(z).backward(), "modified by an inplace operation");
}

TEST(Tensor, InplaceOnUnsavedValueIsFine) {
  Tensor x = ones({3}).requires_grad_(true);
  Tensor y = add(x, 1.0);
  Tensor z = add(y, 1.0);  // add saves nothing
  add_(y, ones({3}));
  sum(z).backward();
  EXPECT_TRUE(Near(x.grad(), {1, 1, 1}, {3}));
}

TEST(Tensor, ViewOfTransposedNeedsReshape) {
  Tensor x = reshape(arange(0, 6, 1), {2, 3});
  EXPECT_TRUE(Near(view(x, {3, 2}), {0, 1, 2, 3, 4, 5}, {3, 2}));
  EXPECT_KILN_ERROR(view(x, {7}), "shape '[7]' is invalid for input of size 6");
}

}  // namespace
}  // namespace kiln
