// Tests for the legacy linear algebra: svd's V, qr's removal error, pinverse,
// cholesky_solve and cholesky_inverse (one triangle read, the full derivative),
// triangular_solve; closed forms, errors and gradient samples.
#include <cmath>

#include "core/dispatch.h"
#include "core/op_table.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::expect_gradient_matches_finite_differences;
using testing::grad_input;
using testing::Near;
using testing::run_op;
using testing::T;
using testing::well_conditioned;

Tensor op(const char* name, std::vector<Value> args) { return run_op(name, std::move(args))[0]; }

TEST(LegacySvd, VNotVh) {
  // diag(3, 2) with its rows swapped: A = U S V^T; V is returned, not V^T.
  Tensor a = T({0, 2, 3, 0}, {2, 2});
  std::vector<Tensor> usv = run_op("svd", {a});
  EXPECT_TRUE(Near(usv[1], {3, 2}, {2}));
  EXPECT_TRUE(Near(matmul(mul(usv[0], usv[1]), t(usv[2])), {0, 2, 3, 0}, {2, 2}));
  // Without compute_uv, U and V are zeros of m x m and n x n.
  std::vector<Tensor> s = run_op("svd", {ones({3, 2}), true, false});
  EXPECT_EQ(s[0].sizes(), Shape({3, 3}));
  EXPECT_EQ(s[2].sizes(), Shape({2, 2}));
  EXPECT_KILN_ERROR(op("svd", {ones({3})}), "linalg.svd: input should have at least 2 dimensions, but has 1");
  EXPECT_KILN_ERROR(op("qr", {a}), "Since `some` was set to True, use mode='reduced'.");
}

TEST(CholeskySolve, ReadsOneTriangle) {
  // L = [[2, 0], [1, 1]] (99 in the unread triangle): A = L L^T = [[4, 2], [2, 2]].
  Tensor L = T({2, 99, 1, 1}, {2, 2}), B = T({6, 4}, {2, 1});
  EXPECT_TRUE(Near(op("cholesky_solve", {B, L}), {1, 1}, {2, 1}));
  EXPECT_TRUE(Near(op("cholesky_solve", {B, t(L), true}), {1, 1}, {2, 1}));
  EXPECT_TRUE(Near(op("cholesky_inverse", {L}), {0.5, -0.5, -0.5, 1}, {2, 2}));
  EXPECT_TRUE(Near(op("cholesky_inverse", {t(L), true}), {0.5, -0.5, -0.5, 1}, {2, 2}));
  EXPECT_KILN_ERROR(op("cholesky_solve", {T({1, 2}, {2}), L}), "b should have at least 2 dimensions");
  EXPECT_KILN_ERROR(op("cholesky_solve", {ones({3, 1}), L}),
                    "Incompatible matrix sizes for cholesky_solve: each A matrix is 2 by 2 but each b matrix is 3 by 1");
}

TEST(TriangularSolve, SolutionAndCopy) {
  Tensor A = T({2, 1, 99, 4}, {2, 2}), b = T({4, 8}, {2, 1});
  std::vector<Tensor> r = run_op("triangular_solve", {b, A});
  EXPECT_TRUE(Near(r[0], {1, 2}, {2, 1}));
  EXPECT_TRUE(Near(r[1], {2, 1, 99, 4}, {2, 2}));
  EXPECT_NE(r[1].storage(), A.storage());
  // transpose: A^T x = b with A^T lower = [[2, 0], [1, 4]].
  EXPECT_TRUE(Near(op("triangular_solve", {b, A, true, true}), {2, 1.5}, {2, 1}));
  EXPECT_KILN_ERROR(op("triangular_solve", {b, ones({2, 3})}),
                    "A must be batches of square matrices, but they are 2 by 3 matrices");
}

// The factor's gradient, as PyTorch's: finite differences of the triangle read (through tril),
// and in full the gradient of the same function of M M^T (M M^T's inverse, solved), which
// reads every entry.
Tensor factor_at(const Tensor& v) { return add(tril(v), mul(eye(3, std::nullopt, DType::Float64), 3.0)); }
Tensor grad_of(const Tensor& leaf, const Tensor& loss) {
  loss.backward();
  return leaf.grad();
}
TEST(CholeskySolve, GradientAsPyTorch) {
  Tensor b = grad_input({3, 2}, -1, 1, 3).detach(), w = grad_input({3, 2}, 0.5, 1.5, 4).detach();
  expect_gradient_matches_finite_differences(
      grad_input({3, 3}, -1, 1, 5), [&](const Tensor& v) { return sum(mul(op("cholesky_solve", {b, factor_at(v)}), w)); });
  Tensor L = factor_at(grad_input({3, 3}, -1, 1, 6)).detach(), L2 = clone(L);
  L.requires_grad_(), L2.requires_grad_();
  Tensor got = grad_of(L, sum(mul(op("cholesky_solve", {b, L}), w)));
  Tensor want = grad_of(L2, sum(mul(op("linalg_solve", {matmul(L2, t(L2)), b}), w)));
  EXPECT_TRUE(Near(got, to_double_vector(want), {3, 3}, 1e-9));
}
TEST(CholeskyInverse, GradientAsPyTorch) {
  Tensor w = grad_input({3, 3}, 0.5, 1.5, 4).detach();
  expect_gradient_matches_finite_differences(
      grad_input({3, 3}, -1, 1, 7), [&](const Tensor& v) { return sum(mul(op("cholesky_inverse", {factor_at(v)}), w)); });
  Tensor L = factor_at(grad_input({3, 3}, -1, 1, 8)).detach(), L2 = clone(L);
  L.requires_grad_(), L2.requires_grad_();
  Tensor got = grad_of(L, sum(mul(op("cholesky_inverse", {t(L), true}), w)));
  Tensor want = grad_of(L2, sum(mul(op("linalg_inv", {matmul(L2, t(L2))}), w)));
  EXPECT_TRUE(Near(got, to_double_vector(want), {3, 3}, 1e-9));
}

KILN_GRAD_SAMPLE("triangular_solve", { return {grad_input({3, 2}), well_conditioned({3, 3}, 6)}; });
KILN_GRAD_SAMPLE("triangular_solve",
                 { return {grad_input({3, 1}), well_conditioned({3, 3}, 7), false, true, true}; });

}  // namespace
}  // namespace kiln
