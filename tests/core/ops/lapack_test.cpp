// Tests for the LAPACK ops (inv, det, slogdet, logdet, solve, qr, cholesky):
// values recorded from PyTorch 2.15, batches, PyTorch's errors, and gradient
// samples on well-conditioned matrices.
#include <cmath>

#include "core/autograd.h"
#include "core/dispatch.h"
#include "core/format.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::expect_gradient_matches_finite_differences;
using testing::grad_input;
using testing::Near;
using testing::T;
using testing::well_conditioned;

Tensor op(const char* name, std::vector<Value> args) { return call_op(name, args)[0]; }
std::vector<Tensor> ops2(const char* name, std::vector<Value> args) { return call_op(name, args); }



const std::vector<double> kM = {2, 1, 0, 1, 3, 1, 0, 1, 4};

TEST(Lapack, InvDetSlogdetSolveMatchPyTorch) {
  Tensor m = T(kM, {3, 3});
  EXPECT_TRUE(Near(op("linalg_inv", {m}),
                   {0.61111110, -0.22222224, 0.05555556, -0.22222224, 0.44444448, -0.11111112, 0.05555556,
                    -0.11111112, 0.27777779},
                   {3, 3}));
  EXPECT_TRUE(Near(op("inverse", {transpose(transpose(m, 0, 1), 0, 1)}), to_double_vector(op("linalg_inv", {m})),
                   {3, 3}));
  EXPECT_TRUE(Near(op("det", {m}), {18}, {}));
  std::vector<Tensor> sl = ops2("linalg_slogdet", {neg(m)});
  EXPECT_TRUE(Near(sl[0], {-1}, {}));
  EXPECT_TRUE(Near(sl[1], {2.89037180}, {}));
  EXPECT_TRUE(std::isnan(op("logdet", {neg(m)}).item_double()));
  EXPECT_TRUE(Near(op("linalg_solve", {m, T({1, 2, 3})}), {0.33333334, 0.33333331, 0.66666669}, {3}));
  // Transposed input (a non-contiguous view): inv(A^T) = inv(A)^T, det unchanged.
  Tensor nt = transpose(T({1, 2, 3, 4}, {2, 2}), 0, 1);
  EXPECT_TRUE(Near(op("linalg_inv", {nt}), {-2, 1.5, 1, -0.5}, {2, 2}));
  EXPECT_TRUE(Near(op("linalg_det", {nt}), {-2}, {}));
  EXPECT_TRUE(Near(op("linalg_det", {T({1, 1, 1, 1}, {2, 2})}), {0}, {}));
}

TEST(Lapack, BatchesAndBroadcasting) {
  Tensor a = reshape(cat({T(kM, {3, 3}), mul(T(kM, {3, 3}), 2.0)}, 0), {2, 3, 3});
  EXPECT_TRUE(Near(op("linalg_det", {a}), {18, 144}, {2}));
  Tensor x = op("linalg_solve", {a, T({1, 2, 3}, {3, 1})});  // B broadcast over the batch
  EXPECT_TRUE(Near(x, {0.33333334, 0.33333331, 0.66666669, 0.16666667, 0.16666666, 0.33333334}, {2, 3, 1}));
  // X A = B
  Tensor left_false = call_op("linalg_solve", std::vector<Value>{T(kM, {3, 3}), T({1, 2, 3}, {1, 3})},
                              {{"left", false}})[0];
  EXPECT_TRUE(Near(left_false, {0.33333334, 0.33333331, 0.66666669}, {1, 3}));  // A is symmetric
}

TEST(Lapack, QrModesMatchPyTorch) {
  Tensor a = T({1, 2, 3, 4, 5, 6}, {3, 2}, DType::Float64);
  std::vector<Tensor> qr = ops2("linalg_qr", {a});
  EXPECT_TRUE(Near(qr[0], {-0.16903085, 0.89708523, -0.50709255, 0.27602622, -0.84515425, -0.34503278}, {3, 2}));
  EXPECT_TRUE(Near(qr[1], {-5.91607978, -7.43735744, 0, 0.82807867}, {2, 2}));
  std::vector<Tensor> full = ops2("linalg_qr", {a, "complete"});
  EXPECT_TRUE(Near(full[0],
                   {-0.16903085, 0.89708523, 0.40824829, -0.50709255, 0.27602622, -0.81649658, -0.84515425,
                    -0.34503278, 0.40824829},
                   {3, 3}));
  EXPECT_TRUE(Near(full[1], {-5.91607978, -7.43735744, 0, 0.82807867, 0, 0}, {3, 2}));
  std::vector<Tensor> wide = ops2("linalg_qr", {transpose(a, 0, 1)});
  EXPECT_TRUE(Near(wide[0], {-0.44721360, -0.89442719, -0.89442719, 0.44721360}, {2, 2}));
  EXPECT_TRUE(Near(wide[1], {-2.23606798, -4.91934955, -7.60263112, 0, -0.89442719, -1.78885438}, {2, 3}));
  std::vector<Tensor> r_only = ops2("linalg_qr", {a, "r"});
  EXPECT_EQ(r_only[0].sizes(), Shape{0});
  EXPECT_TRUE(Near(r_only[1], to_double_vector(qr[1]), {2, 2}));
  EXPECT_KILN_ERROR(ops2("linalg_qr", {a, "full"}), "qr received unrecognized mode 'full'");
}

TEST(Lapack, CholeskyMatchesPyTorch) {
  Tensor s = T({4, 2, 2, 3}, {2, 2});
  EXPECT_TRUE(Near(op("linalg_cholesky", {s}), {2, 0, 1, 1.41421354}, {2, 2}));
  Tensor upper = call_op("linalg_cholesky", std::vector<Value>{s}, {{"upper", true}})[0];
  EXPECT_TRUE(Near(upper, {2, 1, 0, 1.41421354}, {2, 2}));
  // Only the lower triangle is read, as PyTorch's.
  EXPECT_TRUE(Near(op("linalg_cholesky", {T({4, 99, 2, 3}, {2, 2})}), {2, 0, 1, 1.41421354}, {2, 2}));
}

TEST(Lapack, ErrorsAsPyTorchWords) {
  EXPECT_KILN_ERROR(op("linalg_inv", {T({1, 2, 2, 4}, {2, 2})}),
                    "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the "
                    "input matrix is singular.");
  EXPECT_KILN_ERROR(op("linalg_inv", {ones({2, 3})}), "linalg.inv: A must be batches of square matrices, but they "
                                                      "are 2 by 3 matrices");
  EXPECT_KILN_ERROR(op("linalg_det", {ones({2, 2}, DType::Int64)}),
                    "linalg.det: Expected a floating point or complex tensor as input. Got Long");
  EXPECT_KILN_ERROR(op("linalg_cholesky", {T({1, 2, 2, 1}, {2, 2})}),
                    "linalg.cholesky: The factorization could not be completed because the input is not "
                    "positive-definite (the leading minor of order 2 is not positive-definite).");
  EXPECT_KILN_ERROR(op("linalg_solve", {zeros({2, 2, 2}), ones({2, 2})}),
                    "torch.linalg.solve: (Batch element 0): The solver failed because the input matrix is singular.");
}

TEST(Lapack, NodeNamesMatchPyTorch2) {
  Tensor m = well_conditioned({3, 3});
  EXPECT_EQ(grad_fn_name(*op("linalg_inv", {m}).grad_fn()), "LinalgInvExBackward0");
  EXPECT_EQ(grad_fn_name(*op("inverse", {m}).grad_fn()), "LinalgInvExBackward0");
  EXPECT_EQ(grad_fn_name(*op("det", {m}).grad_fn()), "LinalgDetBackward0");
  EXPECT_EQ(grad_fn_name(*ops2("slogdet", {m})[1].grad_fn()), "LinalgSlogdetBackward0");
  EXPECT_EQ(grad_fn_name(*op("linalg_solve", {m, grad_input({3, 2})}).grad_fn()), "LinalgSolveExBackward0");
}

// Cholesky's derivative is PyTorch's symmetrised one, which finite differences of the raw input
// cannot see (the op reads one triangle): checked through X -> cholesky(X X^T + 3I) instead.
TEST(Lapack, CholeskyGradientMatchesFiniteDifferences) {
  Tensor x = grad_input({3, 3}, -1, 1, 7);
  Tensor w = grad_input({3, 3}, 0.5, 1.5, 8).detach();
  Tensor shift = mul(eye(3, std::nullopt, DType::Float64), 3.0);
  auto f = [&](const Tensor& v) {
    return sum(mul(op("linalg_cholesky", {add(matmul(v, transpose(v, 0, 1)), shift)}), w));
  };
  expect_gradient_matches_finite_differences(x, f);
}

// cholesky_ex's factor has cholesky's derivative, checked the same way.
TEST(Lapack, CholeskyExGradientMatchesFiniteDifferences) {
  Tensor w = grad_input({2, 3, 3}, 0.5, 1.5, 10).detach();
  Tensor shift = mul(eye(3, std::nullopt, DType::Float64), 3.0);
  for (bool upper : {false, true}) {
    Tensor x = grad_input({2, 3, 3}, -1, 1, upper ? 11 : 9);  // a fresh leaf: gradients accumulate
    auto f = [&](const Tensor& v) {
      Tensor spd = add(matmul(v, transpose(v, 1, 2)), shift);
      return sum(mul(call_op("linalg_cholesky_ex", std::vector<Value>{spd}, {{"upper", upper}})[0], w));
    };
    expect_gradient_matches_finite_differences(x, f);
  }
}

// The _ex ops report failures in info instead of raising (unless check_errors).
TEST(Lapack, ExVariantsReportInfo) {
  Tensor singular = T({1, 2, 2, 4}, {2, 2});
  EXPECT_EQ(ops2("linalg_inv_ex", {singular})[1].item_double(), 2);
  EXPECT_EQ(ops2("linalg_solve_ex", {singular, ones({2})})[1].item_double(), 2);
  EXPECT_EQ(ops2("linalg_cholesky_ex", {singular})[1].item_double(), 2);
  std::vector<Tensor> ok = ops2("linalg_cholesky_ex", {T({4, 2, 2, 3}, {2, 2})});
  EXPECT_TRUE(Near(ok[0], {2, 0, 1, 1.41421354}, {2, 2}));
  EXPECT_EQ(ok[1].dtype(), DType::Int32);
  EXPECT_EQ(ok[1].item_double(), 0);
  EXPECT_KILN_ERROR(call_op("linalg_inv_ex", std::vector<Value>{singular}, {{"check_errors", true}}),
                    "linalg.inv_ex: The diagonal element 2 is zero");
  EXPECT_KILN_ERROR(call_op("linalg_cholesky_ex", std::vector<Value>{singular}, {{"check_errors", true}}),
                    "linalg.cholesky_ex: The factorization could not be completed");
  EXPECT_KILN_ERROR(call_op("linalg_solve_ex", std::vector<Value>{singular, ones({2})}, {{"check_errors", true}}),
                    "torch.linalg.solve_ex: The solver failed because the input matrix is singular.");
}

TEST(Lapack, SvdEighLstsqPinvMatchPyTorch) {
  Tensor a = T({1, 2, 3, 4, 5, 7}, {3, 2});
  std::vector<Tensor> usv = ops2("linalg_svd", {a});
  EXPECT_TRUE(Near(usv[0], {-0.2168, 0.9389, -0.2673, -0.4905, -0.3415, -0.8018, -0.8441, -0.0427, 0.5345}, {3, 3},
                   1e-4));
  EXPECT_TRUE(Near(usv[1], {10.1914, 0.3671}, {2}, 1e-4));
  EXPECT_TRUE(Near(usv[2], {-0.5798, -0.8148, -0.8148, 0.5798}, {2, 2}, 1e-4));
  EXPECT_EQ(ops2("linalg_svd", {a, false})[0].sizes(), (Shape{3, 2}));
  std::vector<Tensor> eig = ops2("linalg_eigh", {T({2, 1, 1, 3}, {2, 2})});
  EXPECT_TRUE(Near(eig[0], {1.3820, 3.6180}, {2}, 1e-4));
  EXPECT_TRUE(Near(eig[1], {-0.8507, 0.5257, 0.5257, 0.8507}, {2, 2}, 1e-4));
  // Only the named triangle is read.
  EXPECT_TRUE(Near(ops2("linalg_eigh", {T({2, 99, 1, 3}, {2, 2}), "L"})[0], {1.3820, 3.6180}, {2}, 1e-4));
  EXPECT_TRUE(Near(ops2("linalg_eigh", {T({2, 1, 99, 3}, {2, 2}), "U"})[0], {1.3820, 3.6180}, {2}, 1e-4));
  std::vector<Tensor> ls = ops2("linalg_lstsq", {a, T({1, 2, 2}, {3, 1})});
  EXPECT_TRUE(Near(ls[0], {-0.2143, 0.5}, {2, 1}, 1e-4));
  EXPECT_EQ(ls[1].sizes(), Shape{0});
  EXPECT_EQ(ls[2].item_double(), 2);
  EXPECT_TRUE(Near(op("linalg_pinv", {a}), {-2.0714, 0.78571, 0.14286, 1.5, -0.5, 0}, {2, 3}, 1e-4));
  EXPECT_EQ(op("linalg_matrix_rank", {a}).item_double(), 2);
  EXPECT_EQ(op("linalg_matrix_rank", {ones({3, 3})}).item_double(), 1);
  EXPECT_TRUE(Near(op("linalg_matrix_power", {T({1, 1, 0, 1}, {2, 2}), 3}), {1, 3, 0, 1}, {2, 2}));
  EXPECT_TRUE(Near(op("matrix_power", {T({2, 0, 0, 4}, {2, 2}), -2}), {0.25, 0, 0, 0.0625}, {2, 2}));
  EXPECT_KILN_ERROR(op("linalg_matrix_power", {ones({2, 3}), 2}), "A must be batches of square matrices");
}

// eigh's derivative (eigenvalues and eigenvectors) through X -> eigh(X + X^T), as for cholesky.
TEST(Lapack, EighGradientMatchesFiniteDifferences) {
  Tensor x = grad_input({3, 3}, -1, 1, 11);
  Tensor wl = grad_input({3}, 0.5, 1.5, 12).detach(), wq = grad_input({3, 3}, 0.5, 1.5, 13).detach();
  auto f = [&](const Tensor& v) {
    std::vector<Tensor> lq = ops2("linalg_eigh", {add(v, transpose(v, 0, 1))});
    // Each eigenvector times the sign of its first entry: the loss must not depend on the sign choice.
    Tensor q = mul(lq[1], sign(select(lq[1], 0, 0)));
    return add(sum(mul(lq[0], wl)), sum(mul(q, wq)));
  };
  expect_gradient_matches_finite_differences(x, f);
}

// LU: pivots 1-based int32, A = P L U, rectangular shapes; values recorded from PyTorch 2.15.
TEST(Lapack, LuFactorUnpackSolveMatchPyTorch) {
  Tensor w = T({1, 2, 3, 4, 5, 6, 7, 9, 1, 0, 2, 1}, {3, 4});
  std::vector<Tensor> f = ops2("linalg_lu_factor", {w});
  EXPECT_TRUE(Near(f[0], {5, 6, 7, 9, 0.2, -1.2, 0.6, -0.8, 0.2, -0.6667, 2, 1.6667}, {3, 4}, 1e-4));
  EXPECT_EQ(f[1].dtype(), DType::Int32);
  EXPECT_TRUE(Near(to_dtype(f[1], DType::Float32), {2, 3, 3}, {3}));
  std::vector<Tensor> plu = ops2("lu_unpack", {f[0], f[1]});
  EXPECT_TRUE(Near(plu[0], {0, 0, 1, 1, 0, 0, 0, 1, 0}, {3, 3}));
  EXPECT_TRUE(Near(matmul(plu[0], matmul(plu[1], plu[2])), to_double_vector(w), {3, 4}, 1e-5));
  std::vector<Tensor> tall = ops2("linalg_lu", {transpose(w, 0, 1)});
  EXPECT_TRUE(Near(tall[0], {0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0}, {4, 4}));
  EXPECT_TRUE(Near(tall[1], {1, 0, 0, 0.25, 1, 0, 0.75, 0.0909, 1, 0.5, 0.5455, -0.7692}, {4, 3}, 1e-4));
  Tensor m = T(kM, {3, 3});
  std::vector<Tensor> mf = ops2("linalg_lu_factor", {m});
  EXPECT_TRUE(Near(op("linalg_lu_solve", {mf[0], mf[1], T({1, 2, 3}, {3, 1})}), {0.33333334, 0.33333331, 0.66666669},
                   {3, 1}));
  std::vector<Tensor> ex = ops2("linalg_lu_factor_ex", {T({1, 1, 1, 1}, {2, 2})});
  EXPECT_EQ(ex[2].item_double(), 2);
  EXPECT_KILN_ERROR(ops2("linalg_lu_factor", {T({1, 1, 1, 1}, {2, 2})}),
                    "torch.linalg.lu_factor: U[2,2] is zero and using it on lu_solve would result in a division by "
                    "zero.");
  EXPECT_KILN_ERROR(ops2("linalg_lu_factor", {ones({3})}),
                    "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead");
  EXPECT_KILN_ERROR(ops2("lu_unpack", {mf[0], to_dtype(T({4, 3, 3}), DType::Int32)}),
                    "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.");
}

// svd's derivative through sign-invariant losses: U diag(S) Vh and |U|, |Vh| weighted.
TEST(Lapack, SvdGradientMatchesFiniteDifferences) {
  for (Shape shape : {Shape{4, 3}, Shape{3, 5}}) {
    Tensor x = grad_input(shape, -1, 1, 31);
    Tensor wu = grad_input({shape[0], 3}, 0.5, 1.5, 32).detach(), wv = grad_input({3, shape[1]}, 0.5, 1.5, 33).detach();
    auto f = [&](const Tensor& v) {
      std::vector<Tensor> usv = ops2("linalg_svd", {v, false});
      Tensor back = matmul(mul(usv[0], unsqueeze(usv[1], -2)), usv[2]);
      return add(add(sum(mul(back, back)), sum(mul(abs(usv[0]), wu))), sum(mul(abs(usv[2]), wv)));
    };
    expect_gradient_matches_finite_differences(x, f);
  }
}

KILN_GRAD_SAMPLE("linalg_svd", { return {grad_input({3, 2}, -1, 1, 21), false}; });
KILN_GRAD_SAMPLE("linalg_svd", { return {grad_input({2, 4}, -1, 1, 22), false}; });
KILN_GRAD_SAMPLE("linalg_svd", { return {grad_input({3, 3}, -1, 1, 23)}; });
KILN_GRAD_SAMPLE("linalg_svdvals", { return {grad_input({3, 4}, -1, 1, 24)}; });
KILN_GRAD_SAMPLE("linalg_pinv", { return {grad_input({4, 3}, -1, 1, 25)}; });
KILN_GRAD_SAMPLE("pinverse", { return {grad_input({2, 3}, -1, 1, 26)}; });
KILN_GRAD_SAMPLE("svd", { return {grad_input({3, 2}, -1, 1, 27)}; });
KILN_GRAD_SAMPLE("linalg_qr", { return {grad_input({4, 3}, -1, 1, 28)}; });
KILN_GRAD_SAMPLE("linalg_qr", { return {grad_input({2, 4}, -1, 1, 29)}; });
KILN_GRAD_SAMPLE("linalg_qr", { return {grad_input({2, 3, 3}, -1, 1, 30), "complete"}; });
KILN_GRAD_SAMPLE("_linalg_lstsq", { return {grad_input({4, 3}, -1, 1, 31), grad_input({4, 2}, -1, 1, 32)}; });
KILN_GRAD_SAMPLE("linalg_lstsq", { return {grad_input({4, 2}, -1, 1, 33), grad_input({4}, -1, 1, 34)}; });
KILN_GRAD_SAMPLE("linalg_matrix_norm", { return {grad_input({3, 2}, -1, 1, 35), 2}; });
KILN_GRAD_SAMPLE("linalg_matrix_norm", { return {grad_input({2, 3, 2}, -1, 1, 36), -2, Shape{0, 2}, true}; });
KILN_GRAD_SAMPLE("linalg_matrix_norm.str_ord", { return {grad_input({3, 3}, -1, 1, 37), "nuc"}; });
KILN_GRAD_SAMPLE("linalg_norm.ord_str", { return {grad_input({2, 3}, -1, 1, 38), "nuc"}; });
KILN_GRAD_SAMPLE("norm.str", { return {grad_input({3, 2}, -1, 1, 39), "nuc"}; });
KILN_GRAD_SAMPLE("_linalg_lu_factor", { return {grad_input({3, 3}, -1, 1, 40)}; });
KILN_GRAD_SAMPLE("_linalg_lu_factor", { return {grad_input({2, 3, 4}, -1, 1, 41)}; });
KILN_GRAD_SAMPLE("_linalg_lu_factor", { return {grad_input({4, 2}, -1, 1, 42)}; });
KILN_GRAD_SAMPLE("linalg_lu_factor", { return {grad_input({3, 3}, -1, 1, 43)}; });
KILN_GRAD_SAMPLE("linalg_lu_factor_ex", { return {grad_input({3, 2}, -1, 1, 44)}; });
KILN_GRAD_SAMPLE("linalg_lu", { return {grad_input({2, 3}, -1, 1, 45)}; });
KILN_GRAD_SAMPLE("lu", { return {grad_input({3, 3}, -1, 1, 53), true, true}; });
KILN_GRAD_SAMPLE("lu_unpack", {
  return {grad_input({3, 3}, -1, 1, 46), call_op("linalg_lu_factor", std::vector<Value>{T(kM, {3, 3})})[1]};
});
// The solves take a factor of a well-conditioned matrix, with the gradient checked at the factor.
Tensor factored(uint64_t seed, Tensor* pivots) {
  std::vector<Tensor> f = call_op("linalg_lu_factor", std::vector<Value>{well_conditioned({3, 3}, seed).detach()});
  *pivots = f[1];
  f[0].requires_grad_(true);
  return f[0];
}
KILN_GRAD_SAMPLE("_linalg_lu_solve", {
  Tensor piv, lu = factored(47, &piv);
  return {lu, piv, grad_input({3, 2}, -1, 1, 48), true};
});
KILN_GRAD_SAMPLE("linalg_lu_solve", {
  Tensor piv, lu = factored(49, &piv);
  return {lu, piv, grad_input({2, 3}, -1, 1, 50), false, true};
});
KILN_GRAD_SAMPLE("lu_solve", {
  Tensor piv, lu = factored(51, &piv);
  return {grad_input({3, 1}, -1, 1, 52), lu, piv};
});
KILN_GRAD_SAMPLE("linalg_matrix_power", { return {well_conditioned({3, 3}), 3}; });
KILN_GRAD_SAMPLE("linalg_matrix_power", { return {well_conditioned({2, 2}), -2}; });
KILN_GRAD_SAMPLE("matrix_power", { return {well_conditioned({2, 2}), 0}; });
KILN_GRAD_SAMPLE("_linalg_inv", { return {well_conditioned({3, 3})}; });
KILN_GRAD_SAMPLE("_linalg_inv", { return {well_conditioned({2, 2, 2}, 2)}; });
KILN_GRAD_SAMPLE("linalg_inv", { return {well_conditioned({3, 3})}; });
KILN_GRAD_SAMPLE("inverse", { return {well_conditioned({2, 2})}; });
KILN_GRAD_SAMPLE("_linalg_det", { return {well_conditioned({3, 3})}; });
KILN_GRAD_SAMPLE("_linalg_det", { return {well_conditioned({2, 3, 3}, 3)}; });
KILN_GRAD_SAMPLE("linalg_det", { return {well_conditioned({3, 3})}; });
KILN_GRAD_SAMPLE("det", { return {well_conditioned({2, 2})}; });
KILN_GRAD_SAMPLE("_linalg_slogdet", { return {well_conditioned({3, 3})}; });
KILN_GRAD_SAMPLE("linalg_slogdet", { return {well_conditioned({2, 3, 3}, 4)}; });
KILN_GRAD_SAMPLE("slogdet", { return {well_conditioned({3, 3})}; });
KILN_GRAD_SAMPLE("logdet", { return {well_conditioned({3, 3})}; });
KILN_GRAD_SAMPLE("linalg_inv_ex", { return {well_conditioned({2, 3, 3}, 6)}; });
KILN_GRAD_SAMPLE("linalg_solve_ex", { return {well_conditioned({3, 3}), grad_input({3})}; });
KILN_GRAD_SAMPLE("linalg_solve_ex", { return {well_conditioned({2, 3, 3}, 7), grad_input({2, 3}), false}; });
KILN_GRAD_SAMPLE("_linalg_solve", { return {well_conditioned({3, 3}), grad_input({3, 2})}; });
KILN_GRAD_SAMPLE("linalg_solve", { return {well_conditioned({3, 3}), grad_input({3})}; });
KILN_GRAD_SAMPLE("linalg_solve", { return {well_conditioned({2, 3, 3}, 5), grad_input({3, 2})}; });
KILN_GRAD_SAMPLE("linalg_solve", { return {well_conditioned({3, 3}), grad_input({2, 3}), false}; });

}  // namespace
}  // namespace kiln
