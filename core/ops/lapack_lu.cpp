// The LU family over LAPACK's getrf/getrs: linalg.lu_factor(_ex), linalg.lu,
// lu_unpack, linalg.lu_solve and the legacy lu_solve. Pivots are LAPACK's:
// 1-based int32 row swaps applied in order (row i swapped with pivots[i]), so
// A = P L U with P^T the product of those swaps. The kernels hand LAPACK
// column-major copies, as A row-major would read as A^T.
#include <algorithm>
#include <string>
#include <vector>

#include "core/ops/lapack_util.h"

extern "C" {
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, size_t trans_len);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t trans_len);
}

namespace kiln {
namespace ops {
namespace {
using namespace lapack;

int getrf(int m, int n, float* a, int* ipiv) {
  int info = 0, ld = std::max(m, 1);
  sgetrf_(&m, &n, a, &ld, ipiv, &info);
  return info;
}
int getrf(int m, int n, double* a, int* ipiv) {
  int info = 0, ld = std::max(m, 1);
  dgetrf_(&m, &n, a, &ld, ipiv, &info);
  return info;
}
template <class T>
void getrs(char trans, int n, int nrhs, const T* lu, const int* ipiv, T* b) {
  int info = 0, ld = std::max(n, 1);
  if constexpr (std::is_same_v<T, float>) sgetrs_(&trans, &n, &nrhs, lu, &ld, ipiv, b, &ld, &info, 1);
  else dgetrs_(&trans, &n, &nrhs, lu, &ld, ipiv, b, &ld, &info, 1);
}
// Row-major rows x cols <-> column-major (leading dimension rows).
template <class T>
void to_col_major(const T* src, int rows, int cols, T* dst) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) dst[size_t(j) * rows + size_t(i)] = src[size_t(i) * cols + size_t(j)];
}
template <class T>
void from_col_major(const T* src, int rows, int cols, T* dst) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) dst[size_t(i) * cols + size_t(j)] = src[size_t(j) * rows + size_t(i)];
}

// ---- factorisation -------------------------------------------------------------------------
// How a zero pivot is reported: not at all, or as lu_factor / lu_factor_ex raise it.
enum Check : int64_t { kNoCheck = 0, kAsLuFactor = 1, kAsLuFactorEx = 2, kAsInvEx = 3, kAsSolveEx = 4 };

void check_lu_input(const Tensor& A, bool pivot) {
  KILN_CHECK(A.dim() >= 2, Runtime, "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: ",
             shape_str(A.sizes()), " instead");
  KILN_CHECK(A.dtype() == DType::Float32 || A.dtype() == DType::Float64, NotImplemented,
             "\"lu_cpu\" not implemented for '", dtype_legacy_name(A.dtype()), "'");
  KILN_CHECK(pivot, Runtime, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
}
// _linalg_lu_factor(A, pivot, check) -> (LU [.., m, n], pivots [.., k], info [..]), k = min(m, n).
std::vector<Shape> shape_lu_factor(const Args& a) {
  const Tensor& A = a[0].tensor();
  check_lu_input(A, a[1].to_bool());
  Shape piv = batch_shape(A), info = piv;
  piv.push_back(std::min(A.size(-2), A.size(-1)));
  return {A.sizes(), piv, info};
}
std::vector<DType> dtype_lu_factor(const Args& a) { return {a[0].tensor().dtype(), DType::Int32, DType::Int32}; }

// Factors every matrix of A into lu (row-major, A's shape), pivots and info.
template <class T>
void factor_all(const Tensor& A, T* lu, int32_t* piv, int32_t* info) {
  const int m = int(A.size(-2)), n = int(A.size(-1)), k = std::min(m, n);
  Tensor src = dense_copy(A);
  std::vector<T> col(std::max<size_t>(1, size_t(m) * size_t(n)));
  std::vector<int> ipiv(size_t(std::max(k, 1)));
  for (int64_t b = 0; b < batch_of(A); ++b) {
    to_col_major(src.data<T>() + b * m * n, m, n, col.data());
    info[b] = k == 0 ? 0 : getrf(m, n, col.data(), ipiv.data());
    from_col_major(col.data(), m, n, lu + b * m * n);
    std::copy(ipiv.begin(), ipiv.begin() + k, piv + b * k);
  }
}
void lu_factor_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& A = a[0].tensor();
  if (batch_of(A) == 0) return;
  visit_lapack(A.dtype(), "linalg.lu_factor", [&](auto tag) {
    using T = typename decltype(tag)::type;
    factor_all<T>(A, outs[0].data<T>(), outs[1].data<int32_t>(), outs[2].data<int32_t>());
  });
}
// lu_factor raises on an exactly zero pivot (lu_factor_ex only with check_errors=True), at the
// caller's line even when the kernel is deferred: it factors a copy.
void check_lu_factor(const Args& a) {
  const Tensor& A = a[0].tensor();
  const int64_t mode = a[2].to_int();
  if (mode == kNoCheck || A.dim() < 2 || !a[1].to_bool() || batch_of(A) == 0) return;
  if (A.dtype() != DType::Float32 && A.dtype() != DType::Float64) return;  // the shape rule reports it
  const int m = int(A.size(-2)), n = int(A.size(-1)), k = std::min(m, n);
  std::vector<int32_t> piv(size_t(batch_of(A) * k)), info(size_t(batch_of(A)));
  visit_lapack(A.dtype(), "linalg.lu_factor", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> lu(size_t(A.numel()));
    factor_all<T>(A, lu.data(), piv.data(), info.data());
  });
  for (int64_t b = 0; b < batch_of(A); ++b) {
    if (info[size_t(b)] <= 0) continue;
    if (mode == kAsInvEx)
      throw Error(detail::cat("linalg.inv_ex: ", batch_prefix(A, b), "The diagonal element ", info[size_t(b)],
                              " is zero, the inversion could not be completed because the input matrix is singular."),
                  ErrorKind::Runtime);
    if (mode == kAsSolveEx)
      throw Error(detail::cat("torch.linalg.solve_ex: ", batch_prefix(A, b),
                              "The solver failed because the input matrix is singular."),
                  ErrorKind::Runtime);
    throw Error(detail::cat(mode == kAsLuFactor ? "torch.linalg.lu_factor: " : "torch.linalg.lu_factor_ex: ",
                            batch_prefix(A, b), "U[", info[size_t(b)], ",", info[size_t(b)],
                            "] is zero and using it on lu_solve would result in a division by zero. If you still "
                            "want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                            "linalg.lu_factor_ex(A, pivot)"),
                ErrorKind::Runtime);
  }
}

// ---- pivots to a permutation matrix ----------------------------------------------------------
// _lu_pivots_to_permutation(pivots [.., k], int m) -> P [.., m, m] in dtype, with A = P L U.
std::vector<Shape> shape_pivots_to_perm(const Args& a) {
  Shape s(a[0].tensor().sizes().begin(), a[0].tensor().sizes().end() - 1);
  s.insert(s.end(), {a[1].to_int(), a[1].to_int()});
  return {s};
}
std::vector<DType> dtype_pivots_to_perm(const Args& a) { return {a[2].dtype()}; }
// The rows of A in the order getrf's swaps leave them: (P^T A)[i] = A[perm[i]].
std::vector<int64_t> row_order(const int32_t* piv, int64_t k, int64_t m) {
  std::vector<int64_t> perm(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) perm[size_t(i)] = i;
  for (int64_t i = 0; i < k; ++i) std::swap(perm[size_t(i)], perm[size_t(piv[i] - 1)]);
  return perm;
}
void check_pivots(const Args& a) {
  Tensor piv = contiguous(a[0].tensor());
  const int32_t* p = piv.data<int32_t>();
  for (int64_t i = 0; i < piv.numel(); ++i)
    KILN_CHECK(p[i] >= 1 && p[i] <= a[1].to_int(), Runtime,
               "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly pass the "
               "result of lu_factor?");
}
void pivots_to_perm_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor piv = contiguous(a[0].tensor());
  const int64_t m = a[1].to_int(), k = piv.dim() == 0 ? 0 : piv.size(-1);
  const int64_t batches = m == 0 ? 0 : outs[0].numel() / (m * m);
  Tensor P = zeros(outs[0].sizes(), DType::Float64);
  double* pp = P.data<double>();
  for (int64_t b = 0; b < batches; ++b) {
    std::vector<int64_t> perm = row_order(piv.data<int32_t>() + b * k, k, m);
    for (int64_t i = 0; i < m; ++i) pp[b * m * m + perm[size_t(i)] * m + i] = 1;
  }
  copy_cast(outs[0], P);
}
Tensor permutation_of(const Tensor& pivots, int64_t m, DType dtype) {
  return call_op("_lu_pivots_to_permutation", std::vector<Value>{pivots, m, dtype})[0];
}

// ---- unpacking -------------------------------------------------------------------------------
struct Unpacked {
  Tensor L, U;
};
// L (m x k, unit diagonal) and U (k x n) from the packed factor.
Unpacked unpack_factors(const Tensor& LU) {
  const int64_t m = LU.size(-2), n = LU.size(-1), k = std::min(m, n);
  Tensor L = tril(narrow(LU, -1, 0, k), -1);
  L = add(L, eye(m, k, LU.dtype()));
  return {L, triu(narrow(LU, -2, 0, k))};
}

// ---- derivative of the factorisation ---------------------------------------------------------
Tensor solve_tri(const Tensor& A, const Tensor& B, bool upper, bool left, bool unit) {
  return call_op("linalg_solve_triangular", std::vector<Value>{A, B}, {{"upper", upper}, {"left", left},
                                                                         {"unitriangular", unit}})[0];
}
// Square case, A' = P^T A = L U: gA' = L^-T [tril(L^T gL, -1) + triu(gU U^T)] U^-T.
Tensor lu_square_grad(const Tensor& L, const Tensor& U, const Tensor& gL, const Tensor& gU) {
  Tensor inner = add(tril(matmul(mT(L), gL), -1), triu(matmul(gU, mT(U))));
  Tensor left = solve_tri(mT(L), inner, true, true, true);
  return solve_tri(mT(U), left, false, false, false);
}
// d(P L U): gradients of the unpacked factors back to A. A wide A = P L [U1 | U2] factors its
// first k columns as a square one, with U2 = L^-1 P^T A2 feeding L; a tall A = P [L1; L2] U
// likewise has L2 = A2' U^-1 feeding U.
Tensor lu_grad(const Tensor& P, const Tensor& L, const Tensor& U, const Tensor& gL, const Tensor& gU) {
  const int64_t m = L.size(-2), n = U.size(-1), k = L.size(-1);
  if (m == n) return matmul(P, lu_square_grad(L, U, gL, gU));
  if (m < n) {
    Tensor U1 = narrow(U, -1, 0, k), U2 = narrow(U, -1, k, n - k), gU2 = narrow(gU, -1, k, n - k);
    Tensor gA2 = solve_tri(mT(L), gU2, true, true, true);  // L^-T gU2
    Tensor gL1 = sub(gL, matmul(gA2, mT(U2)));
    Tensor gA1 = lu_square_grad(L, U1, gL1, narrow(gU, -1, 0, k));
    return matmul(P, cat({gA1, gA2}, -1));
  }
  Tensor L1 = narrow(L, -2, 0, k), L2 = narrow(L, -2, k, m - k), gL2 = narrow(gL, -2, k, m - k);
  Tensor gA2 = solve_tri(mT(U), gL2, false, false, false);  // gL2 U^-T
  Tensor gU1 = sub(gU, matmul(mT(L2), gA2));
  Tensor gA1 = lu_square_grad(L1, U, narrow(gL, -2, 0, k), gU1);
  return matmul(P, cat({gA1, gA2}, -2));
}
// The packed LU's gradient splits into L's strictly lower part and U's upper part.
std::vector<Tensor> grad_lu_factor(const GradCtx& c) {
  const Tensor &LU = c.out(0), &g = c.grad(0);
  Unpacked f = unpack_factors(LU);
  const int64_t m = LU.size(-2), n = LU.size(-1), k = std::min(m, n);
  Tensor gL = tril(narrow(g, -1, 0, k), -1), gU = triu(narrow(g, -2, 0, k));
  return {lu_grad(permutation_of(c.out(1), m, LU.dtype()), f.L, f.U, gL, gU)};
}

// ---- the public factorisations -------------------------------------------------------------
std::vector<Tensor> lu_factor_call(const Value& A, const Value& pivot, Check check) {
  return call_op("_linalg_lu_factor", std::vector<Value>{A, pivot, int64_t(check)});
}
// linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (LU, pivots, info)
std::vector<Tensor> lu_factor_ex_composite(const Args& a) {
  return lu_factor_call(a[0], a[1], a[2].to_bool() ? kAsLuFactorEx : kNoCheck);
}
// linalg_lu_factor(Tensor A, *, bool pivot=True) -> (LU, pivots)
std::vector<Tensor> lu_factor_composite(const Args& a) {
  std::vector<Tensor> r = lu_factor_call(a[0], a[1], kAsLuFactor);
  return {r[0], r[1]};
}
// lu(Tensor self, bool pivot=True, bool get_infos=False): the legacy spelling, (LU, pivots) with
// info only when asked for; a zero pivot does not raise.
std::vector<Tensor> legacy_lu_composite(const Args& a) {
  std::vector<Tensor> r = lu_factor_call(a[0], a[1], kNoCheck);
  if (!a[2].to_bool()) r.pop_back();
  return r;
}
// lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> (P, L, U);
// the parts not asked for are empty.
std::vector<Tensor> lu_unpack_composite(const Args& a) {
  const Tensor &LU = a[0].tensor(), &piv = a[1].tensor();
  KILN_CHECK(LU.dim() >= 2, Runtime, "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: ",
             shape_str(LU.sizes()), " instead");
  const int64_t m = LU.size(-2), k = std::min(m, LU.size(-1));
  Tensor empty = empty_tensor({0}, LU.dtype());
  Tensor P = empty, L = empty, U = empty;
  if (a[3].to_bool()) {
    KILN_CHECK(piv.dtype() == DType::Int32, Runtime,
               "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\nNote: this "
               "function is intended to be used with the output produced by torch.linalg.lu_factor");
    Shape want = batch_shape(LU);
    want.push_back(k);
    KILN_CHECK(piv.sizes() == want, Value, "Expected LU_pivots to have shape ", shape_str(want), " but got ",
               shape_str(piv.sizes()), " instead.");
    P = permutation_of(piv, m, LU.dtype());
  }
  if (a[2].to_bool()) {
    Unpacked f = unpack_factors(LU);
    L = as_node(f.L, "LuUnpackBackward0"), U = as_node(f.U, "LuUnpackBackward0");
  }
  return {P, L, U};
}
// linalg_lu(Tensor A, *, bool pivot=True) -> (P, L, U)
std::vector<Tensor> linalg_lu_composite(const Args& a) {
  std::vector<Tensor> f = lu_factor_call(a[0], a[1], kNoCheck);
  std::vector<Tensor> plu = call_op("lu_unpack", std::vector<Value>{f[0], f[1]});
  return {plu[0], as_node(plu[1], "LinalgLuBackward0"), as_node(plu[2], "LinalgLuBackward0")};
}

// ---- solving with the factorisation ----------------------------------------------------------
// _linalg_lu_solve(LU [.., n, n], pivots [.., n], B [.., n, k], bool adjoint) -> X with
// op(A) X = B, op(A) = A or A^T; batch shapes already equal.
std::vector<Shape> shape_lu_solve(const Args& a) { return {a[2].tensor().sizes()}; }
void lu_solve_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &LU = a[0].tensor(), &B = a[2].tensor();
  Tensor lu = dense_copy(LU), rhs = dense_copy(B), piv = contiguous(a[1].tensor());
  const int n = int(LU.size(-1)), k = int(B.size(-1));
  if (n == 0 || k == 0) return;
  // LAPACK reads our row-major LU as its transpose; a column-major copy is the factor itself.
  visit_lapack(LU.dtype(), "linalg.lu_solve", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> col_lu(size_t(n) * n), col_b(size_t(n) * k);
    for (int64_t b = 0; b < batch_of(LU); ++b) {
      to_col_major(lu.data<T>() + b * n * n, n, n, col_lu.data());
      to_col_major(rhs.data<T>() + b * n * k, n, k, col_b.data());
      getrs(a[3].to_bool() ? 'T' : 'N', n, k, col_lu.data(), piv.data<int32_t>() + b * n, col_b.data());
      from_col_major(col_b.data(), n, k, outs[0].data<T>() + b * n * k);
    }
  });
}
Tensor lu_solve_call(const Tensor& LU, const Tensor& piv, const Tensor& B, bool adjoint) {
  return call_op("_linalg_lu_solve", std::vector<Value>{LU, piv, B, adjoint})[0];
}
// X = op(A)^-1 B: gB = op(A)^-T gX; gA = -gB X^T (op(A) = A) or -X gB^T (A^T), then to the packed
// factor through A = P L U: gL = tril(P^T gA U^T, -1), gU = triu(L^T P^T gA).
std::vector<Tensor> grad_lu_solve(const GradCtx& c) {
  const Tensor &LU = c.in(0), &piv = c.in(1), &X = c.out();
  const bool adjoint = c.args[3].to_bool();
  Tensor gB = lu_solve_call(LU, piv, c.grad(), !adjoint);
  Tensor gLU;
  if (c.need(0)) {
    Tensor gA = neg(adjoint ? matmul(X, mT(gB)) : matmul(gB, mT(X)));
    Unpacked f = unpack_factors(LU);
    Tensor PtgA = matmul(mT(permutation_of(piv, LU.size(-1), LU.dtype())), gA);
    gLU = add(tril(matmul(PtgA, mT(f.U)), -1), triu(matmul(mT(f.L), PtgA)));
  }
  return {gLU, Tensor(), c.need(2) ? gB : Tensor()};
}
// linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False):
// batch dims broadcast; X A = B is solved as A^T X^T = B^T.
std::vector<Tensor> lu_solve_composite(const Args& a) {
  const Tensor &LU = a[0].tensor(), &piv = a[1].tensor();
  Tensor B = a[2].tensor();
  const bool left = a[3].to_bool(), adjoint = a[4].to_bool();
  KILN_CHECK(LU.dtype() == B.dtype(), Runtime,
             "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type ",
             dtype_legacy_name(LU.dtype()), " and B of type ", dtype_legacy_name(B.dtype()), " instead");
  KILN_CHECK(B.dim() >= 2, Runtime, "linalg.lu_solve: The input tensor B must have at least 2 dimensions.");
  check_square(LU, "torch.linalg.lu_solve");
  const int64_t n = LU.size(-1);
  KILN_CHECK(left ? B.size(-2) == n : B.size(-1) == n, Runtime, "linalg.lu_solve: Incompatible shapes of A and B ",
             "for the equation ", left ? "AX = B" : "XA = B", " (", n, "x", n, " and ", B.size(-2), "x", B.size(-1),
             ")");
  KILN_CHECK(piv.dtype() == DType::Int32, Runtime, "linalg.lu_solve: Expected pivots to be of type int32, but got ",
             dtype_legacy_name(piv.dtype()));
  if (!left) B = mT(B);
  Shape batch = broadcast_shapes(batch_shape(LU), batch_shape(B));
  Shape lu_size = batch, b_size = batch, piv_size = batch;
  lu_size.insert(lu_size.end(), {n, n});
  b_size.insert(b_size.end(), {n, B.size(-1)});
  piv_size.push_back(n);
  Tensor X = lu_solve_call(expand(LU, lu_size), expand(piv, piv_size), expand(B, b_size), left ? adjoint : !adjoint);
  X = left ? X : mT(X);
  return {as_node(X, "LinalgLuSolveBackward0")};
}
// The _ex solvers: a float square A (PyTorch's checks and messages, under the public op's name).
void check_ex_input(const Tensor& A, const char* op) {
  KILN_CHECK(is_floating(A.dtype()), NotImplemented, op, ": Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(A.dtype()));
  check_square(A, op);
}
// linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (inverse, info): A X = I through A's LU
// (as PyTorch's solve_ex(A, I)); a singular A leaves info > 0 and the solve's infs, and raises
// only when check_errors is set.
std::vector<Tensor> inv_ex_composite(const Args& a) {
  const Tensor& A = a[0].tensor();
  check_ex_input(A, "linalg.inv");
  std::vector<Tensor> f = lu_factor_call(A, true, a[1].to_bool() ? kAsInvEx : kNoCheck);
  Tensor I = expand(eye(A.size(-1), std::nullopt, A.dtype()), A.sizes());
  return {as_node(lu_solve_call(f[0], f[1], I, false), "LinalgInvExBackward0"), f[2]};
}
// linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (result, info):
// linalg.solve's vector and left=False rules over linalg_lu_solve.
std::vector<Tensor> solve_ex_composite(const Args& a) {
  const Tensor& A = a[0].tensor();
  Tensor B = a[1].tensor();
  const bool left = a[2].to_bool();
  check_ex_input(A, "torch.linalg.solve");
  KILN_CHECK(left || B.dim() >= 2, Runtime,
             "torch.linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In "
             "this case linalg.solve is equivalent to B / A.squeeze(-1)");
  const bool vector = left && (B.dim() == 1 || (B.dim() == A.dim() - 1 &&
                                                B.sizes() == Shape(A.sizes().begin(), A.sizes().end() - 1)));
  if (vector) B = unsqueeze(B, -1);
  KILN_CHECK(B.dim() >= 2 && (left ? B.size(-2) : B.size(-1)) == A.size(-1), Runtime,
             "torch.linalg.solve: Incompatible shapes of A and B for the equation ", left ? "AX = B" : "XA = B",
             " (", shape_str(A.sizes()), " and ", shape_str(B.sizes()), ")");
  std::vector<Tensor> f = lu_factor_call(A, true, a[3].to_bool() ? kAsSolveEx : kNoCheck);
  Tensor X = call_op("linalg_lu_solve", std::vector<Value>{f[0], f[1], B}, {{"left", left}})[0];
  if (vector) X = squeeze(X, Shape{-1});
  return {as_node(X, "LinalgSolveExBackward0"), f[2]};
}
// lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots): the legacy argument order.
std::vector<Tensor> legacy_lu_solve_composite(const Args& a) {
  return {call_op("linalg_lu_solve", std::vector<Value>{a[1], a[2], a[0]})[0]};
}

}  // namespace
}  // namespace ops

void register_lapack_lu_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind E = OpKind::Extern, C = OpKind::Composite;
  t.add({.schema_text = "_linalg_lu_factor(Tensor A, bool pivot=True, int check=0) -> (Tensor LU, Tensor pivots, "
                        "Tensor info)",
         .kind = E, .shape = shape_lu_factor, .dtype = dtype_lu_factor, .kernel = lu_factor_kernel,
         .grad = grad_lu_factor, .saves = save_out(0) | save_out(1), .check = check_lu_factor});
  t.add({.schema_text = "linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, "
                        "Tensor pivots, Tensor info)",
         .kind = C, .composite = lu_factor_ex_composite, .grad_node = "LinalgLuFactorExBackward0"});
  t.add({.schema_text = "linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", .kind = C,
         .composite = lu_factor_composite, .grad_node = "LinalgLuFactorExBackward0"});
  t.add({.schema_text = "lu(Tensor self, bool pivot=True, bool get_infos=False) -> (Tensor, Tensor, Tensor)",
         .kind = C, .composite = legacy_lu_composite, .grad_node = "LinalgLuFactorExBackward0"});
  t.add({.schema_text = "linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)",
         .kind = C, .composite = inv_ex_composite});
  t.add({.schema_text = "linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
                        "(Tensor result, Tensor info)",
         .kind = C, .composite = solve_ex_composite});
  t.add({.schema_text = "_lu_pivots_to_permutation(Tensor pivots, int m, ScalarType dtype) -> Tensor",
         .kind = E, .shape = shape_pivots_to_perm, .dtype = dtype_pivots_to_perm, .kernel = pivots_to_perm_kernel,
         .check = check_pivots});
  t.add({.schema_text = "lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) "
                        "-> (Tensor P, Tensor L, Tensor U)",
         .kind = C, .composite = lu_unpack_composite});
  t.add({.schema_text = "linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)", .kind = C,
         .composite = linalg_lu_composite});
  t.add({.schema_text = "_linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, bool adjoint=False) -> Tensor",
         .kind = E, .shape = shape_lu_solve, .dtype = dtype_like_self, .kernel = lu_solve_kernel,
         .grad = grad_lu_solve, .saves = save_in(0) | save_in(1) | save_out(0)});
  t.add({.schema_text = "linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) "
                        "-> Tensor",
         .kind = C, .composite = lu_solve_composite});
  t.add({.schema_text = "lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor", .kind = C,
         .composite = legacy_lu_solve_composite});
}

}  // namespace kiln
