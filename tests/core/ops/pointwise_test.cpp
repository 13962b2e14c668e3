#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

TEST(Add, AlphaAndIntegers) {
  EXPECT_TRUE(Near(add(T({1, 2}), T({10, 20}), 2.0), {21, 42}, {2}));
  Tensor i = add(T({1, 2}, {2}, DType::Int32), T({3}, {}, DType::Int64));
  EXPECT_EQ(i.dtype(), DType::Int32);  // 0-dim tensors don't promote dimensioned ones
}

TEST(Div, IntegersPromoteToFloat) {
  Tensor q = div(T({7, -7}, {2}, DType::Int64), T({2}, {}, DType::Int64));
  EXPECT_EQ(q.dtype(), DType::Float32);
  EXPECT_TRUE(Near(q, {3.5, -3.5}, {2}));
}

KILN_GRAD_SAMPLE("add", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2), 2.0}; });
KILN_GRAD_SAMPLE("sub", { return {grad_input({2, 3}), grad_input({2, 1}, -1, 1, 2), 0.5}; });
KILN_GRAD_SAMPLE("mul", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("div", { return {grad_input({2, 3}), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("neg", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("clone", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("_to_copy", { return {grad_input({3}), DType::Float64}; });
KILN_GRAD_SAMPLE("copy", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("fill", { return {grad_input({2}), 1.0}; });
KILN_GRAD_SAMPLE("zero", { return {grad_input({2})}; });

}  // namespace
}  // namespace kiln
