// Tests for torch.linalg's vecdot, multi_dot, diagonal, solve_triangular, cond
// and matrix_exp: closed forms, the product order multi_dot picks, errors,
// and gradient samples.
#include <cmath>

#include "core/dispatch.h"
#include "core/op_table.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;
using testing::well_conditioned;

// Every argument positionally, keyword-only ones included (dispatch binds by position).
Tensor op(const char* name, std::vector<Value> args) {
  const OpDef& def = op_table().get(name);
  for (size_t i = args.size(); i < def.schema.args.size(); ++i) args.push_back(*def.schema.args[i].default_value);
  return dispatch(def, args)[0];
}

TEST(MatrixExp, ClosedForms) {
  // A diagonal matrix exponentiates entrywise; a nilpotent one ends its series: exp(N) = I + N.
  EXPECT_TRUE(Near(op("linalg_matrix_exp", {T({1, 0, 0, -2}, {2, 2}, DType::Float64)}),
                   {std::exp(1.0), 0, 0, std::exp(-2.0)}, {2, 2}, 1e-12));
  EXPECT_TRUE(Near(op("matrix_exp", {T({0, 3, 0, 0}, {2, 2})}), {1, 3, 0, 1}, {2, 2}));
  // A rotation generator with a large angle: scaling and squaring keeps cos/sin exact to rounding.
  Tensor e = op("linalg_matrix_exp", {T({0, 20, -20, 0}, {2, 2}, DType::Float64)});
  EXPECT_TRUE(Near(e, {std::cos(20.0), std::sin(20.0), -std::sin(20.0), std::cos(20.0)}, {2, 2}, 1e-9));
  // Batches are exponentiated one by one.
  Tensor b = op("linalg_matrix_exp", {T({0, 0, 0, 0, 1, 0, 0, 1}, {2, 2, 2})});
  EXPECT_TRUE(Near(b, {1, 0, 0, 1, std::exp(1.0), 0, 0, std::exp(1.0)}, {2, 2, 2}));
  EXPECT_KILN_ERROR(op("linalg_matrix_exp", {ones({2, 3})}),
                    "linalg.matrix_exp: A must be batches of square matrices, but they are 2 by 3 matrices");
}

TEST(MultiDot, CheapestOrderAndVectors) {
  // [10x1][1x10][10x1]: (A B) C costs 200 multiplications, A (B C) 20; both give the same values.
  Tensor a = T({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {10, 1}), b = T({1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 10});
  Tensor c = T({1, 0, 1, 0, 1, 0, 1, 0, 1, 0}, {10, 1});
  Tensor r = op("linalg_multi_dot", {std::vector<Tensor>{a, b, c}});
  EXPECT_TRUE(Near(r, {5, 10, 15, 20, 25, 30, 35, 40, 45, 50}, {10, 1}));
  // A 1-D first and last operand make a row and a column: the result is a scalar.
  Tensor s = op("linalg_multi_dot", {std::vector<Tensor>{T({1, 2}), T({1, 0, 0, 1}, {2, 2}), T({3, 4})}});
  EXPECT_TRUE(Near(s, {11}, {}));
  EXPECT_KILN_ERROR(op("linalg_multi_dot", {std::vector<Tensor>{a}}), "expected at least 2 tensors but got 1");
  EXPECT_KILN_ERROR(op("linalg_multi_dot", {std::vector<Tensor>{a, c}}),
                    "multi_dot(): tensors 0 and 1 with shapes [10, 1] and [10, 1] cannot be multiplied");
}

TEST(SolveTriangular, ReadsOneTriangle) {
  // The lower triangle holds garbage solve_triangular must not read.
  Tensor A = T({2, 1, 99, 4}, {2, 2});
  EXPECT_TRUE(Near(op("linalg_solve_triangular", {A, T({4, 8}, {2, 1}), true}), {1, 2}, {2, 1}));
  // unitriangular: the diagonal is taken as ones.
  EXPECT_TRUE(Near(op("linalg_solve_triangular", {A, T({3, 1}, {2, 1}), true, true, true}), {2, 1}, {2, 1}));
  // left=False solves X A = B.
  EXPECT_TRUE(Near(op("linalg_solve_triangular", {A, T({2, 5}, {1, 2}), true, false}), {1, 1}, {1, 2}));
  EXPECT_KILN_ERROR(op("linalg_solve_triangular", {A, T({1, 2}), true}),
                    "The input tensor B must have at least 2 dimensions.");
}

TEST(Cond, TwoNormAndOthers) {
  Tensor d = T({4, 0, 0, 0.5}, {2, 2});
  EXPECT_TRUE(Near(op("linalg_cond", {d}), {8}, {}));
  EXPECT_TRUE(Near(op("linalg_cond", {d, -2}), {0.125}, {}));
  EXPECT_TRUE(Near(op("linalg_cond", {d, 1}), {8}, {}));
  EXPECT_TRUE(Near(op("linalg_cond.p_str", {d, "fro"}), {std::sqrt(16.25) * std::sqrt(4.0625)}, {}));
  EXPECT_KILN_ERROR(op("linalg_cond", {ones({2, 3}), 1}),
                    "linalg.cond(ord=1): A must be batches of square matrices, but they are 2 by 3 matrices");
}

TEST(Vecdot, AlongADim) {
  Tensor x = T({1, 2, 3, 4}, {2, 2}), y = T({1, 1, 2, 2}, {2, 2});
  EXPECT_TRUE(Near(op("linalg_vecdot", {x, y}), {3, 14}, {2}));
  EXPECT_TRUE(Near(op("linalg_vecdot", {x, y, int64_t(0)}), {7, 10}, {2}));
  EXPECT_TRUE(Near(op("linalg_diagonal", {T({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2})}), {1, 4, 5, 8}, {2, 2}));
}

KILN_GRAD_SAMPLE("linalg_matrix_exp", { return {grad_input({3, 3}, -1, 1, 7)}; });
KILN_GRAD_SAMPLE("linalg_matrix_exp", { return {grad_input({2, 2, 2}, -2, 2, 8)}; });
KILN_GRAD_SAMPLE("matrix_exp", { return {grad_input({2, 2}, -1, 1, 9)}; });
KILN_GRAD_SAMPLE("linalg_solve_triangular", { return {well_conditioned({3, 3}), grad_input({3, 2}), true}; });
KILN_GRAD_SAMPLE("linalg_solve_triangular",
                 { return {well_conditioned({3, 3}), grad_input({2, 3}), false, false, true}; });
KILN_GRAD_SAMPLE("linalg_vecdot", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("linalg_cond", { return {well_conditioned({3, 3}), 1}; });
KILN_GRAD_SAMPLE("linalg_cond", { return {grad_input({3, 2}, -1, 1, 4), -2}; });
KILN_GRAD_SAMPLE("linalg_cond.p_str", { return {well_conditioned({3, 3}), "fro"}; });
KILN_GRAD_SAMPLE("linalg_cond.p_str", { return {well_conditioned({3, 3}, 2), "nuc"}; });
KILN_GRAD_SAMPLE("linalg_multi_dot", {
  return {std::vector<Tensor>{grad_input({2, 3}), grad_input({3, 4}, -1, 1, 2), grad_input({4}, -1, 1, 3)}};
});
KILN_GRAD_SAMPLE("linalg_diagonal", { return {grad_input({2, 3, 4}), 1, 0, 2}; });

}  // namespace
}  // namespace kiln
