#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

TEST(Sum, DimsKeepdimAndIntPromotion) {
  Tensor x = reshape(arange(0, 6, 1, DType::Int64), {2, 3});
  EXPECT_EQ(sum(x).dtype(), DType::Int64);
  EXPECT_TRUE(Near(sum(x, Shape{-1}), {3, 12}, {2}));
  EXPECT_TRUE(Near(sum(x, Shape{0}, true), {3, 5, 7}, {1, 3}));
}

KILN_GRAD_SAMPLE("sum", { return {grad_input({2, 3, 4}), Shape{0, 2}, true}; });
KILN_GRAD_SAMPLE("sum", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("mean", { return {grad_input({2, 3}), Shape{1}}; });

}  // namespace
}  // namespace kiln
