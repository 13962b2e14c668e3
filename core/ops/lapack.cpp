// Linear algebra through LAPACK, which Debian's OpenBLAS exports: inv, det,
// slogdet, solve, qr and cholesky over batches of float32/float64 matrices,
// with the torch.* and Tensor spellings (inverse, det, logdet, slogdet) as
// composites over them. LAPACK reads column-major: a row-major matrix handed
// over as is reads as its transpose, which inv and det use instead of copies
// (inv(A^T) = inv(A)^T, det(A^T) = det(A)).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/ops/lapack_util.h"

extern "C" {
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetri_(const int* n, float* a, const int* lda, const int* ipiv, float* work, const int* lwork, int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work, const int* lwork, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, size_t trans_len);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t trans_len);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork,
             int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
}

namespace kiln {
namespace ops {
namespace {
using namespace lapack;

// ---- typed LAPACK calls (info as the result) ----------------------------------------------
int getrf(int n, float* a, int* ipiv) {
  int info = 0;
  sgetrf_(&n, &n, a, &n, ipiv, &info);
  return info;
}
int getrf(int n, double* a, int* ipiv) {
  int info = 0;
  dgetrf_(&n, &n, a, &n, ipiv, &info);
  return info;
}
template <class T>
int getri(int n, T* a, const int* ipiv) {
  int info = 0, lwork = std::max(1, 64 * n);
  std::vector<T> work(static_cast<size_t>(lwork));
  if constexpr (std::is_same_v<T, float>) sgetri_(&n, a, &n, ipiv, work.data(), &lwork, &info);
  else dgetri_(&n, a, &n, ipiv, work.data(), &lwork, &info);
  return info;
}
// Solves op(A) X = B with A's LU from getrf; B is n x nrhs, column-major.
template <class T>
void getrs(char trans, int n, int nrhs, const T* lu, const int* ipiv, T* b) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>) sgetrs_(&trans, &n, &nrhs, lu, &n, ipiv, b, &n, &info, 1);
  else dgetrs_(&trans, &n, &nrhs, lu, &n, ipiv, b, &n, &info, 1);
}
template <class T>
void geqrf(int m, int n, T* a, T* tau) {
  int info = 0, lwork = std::max(1, 64 * n);
  std::vector<T> work(static_cast<size_t>(lwork));
  if constexpr (std::is_same_v<T, float>) sgeqrf_(&m, &n, a, &m, tau, work.data(), &lwork, &info);
  else dgeqrf_(&m, &n, a, &m, tau, work.data(), &lwork, &info);
}
// The first `cols` columns of Q from geqrf's reflectors (k of them), into a (m x cols, lda m).
template <class T>
void orgqr(int m, int cols, int k, T* a, const T* tau) {
  int info = 0, lwork = std::max(1, 64 * cols);
  std::vector<T> work(static_cast<size_t>(lwork));
  if constexpr (std::is_same_v<T, float>) sorgqr_(&m, &cols, &k, a, &m, tau, work.data(), &lwork, &info);
  else dorgqr_(&m, &cols, &k, a, &m, tau, work.data(), &lwork, &info);
}
template <class T>
int potrf(char uplo, int n, T* a) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>) spotrf_(&uplo, &n, a, &n, &info, 1);
  else dpotrf_(&uplo, &n, a, &n, &info, 1);
  return info;
}

// ---- factorisations that can fail ---------------------------------------------------------
enum class Factor { LU, Cholesky };
// Factors matrix b of the dense copy in place; throws PyTorch's error when it fails.
template <class T>
void factor_or_throw(Factor f, const Tensor& A, int64_t b, T* m, int* ipiv, const char* op) {
  const int n = int(A.size(-1));
  const int info = f == Factor::LU ? getrf(n, m, ipiv) : potrf('U', n, m);
  if (info == 0) return;
  std::string where = std::string(op) + ": " + batch_prefix(A, b);
  if (f == Factor::Cholesky)
    throw Error(detail::cat(where,
                            "The factorization could not be completed because the input is not positive-definite "
                            "(the leading minor of order ",
                            info, " is not positive-definite)."),
                ErrorKind::Runtime);
  if (std::string_view(op) == "linalg.inv")
    throw Error(detail::cat(where, "The diagonal element ", info,
                            " is zero, the inversion could not be completed because the input matrix is singular."),
                ErrorKind::Runtime);
  throw Error(detail::cat(where, "The solver failed because the input matrix is singular."), ErrorKind::Runtime);
}
// The ops' value checks (see CheckFn): a singular or indefinite input raises at the caller's
// line even when the kernel is deferred. They factor a copy, so the kernel's own never fires.
template <Factor F, const char* Op>
void check_factorable(const Args& a) {
  const Tensor& A = a[0].tensor();
  if (A.dim() < 2 || A.size(-1) != A.size(-2) || (A.dtype() != DType::Float32 && A.dtype() != DType::Float64))
    return;  // the shape rule reports these
  Tensor lu = dense_copy(A);
  const int n = int(A.size(-1));
  visit_lapack(A.dtype(), Op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<int> ipiv(size_t(std::max(n, 1)));
    for (int64_t b = 0; b < batch_of(A); ++b) factor_or_throw(F, A, b, lu.data<T>() + b * n * n, ipiv.data(), Op);
  });
}
constexpr char kInvName[] = "linalg.inv", kSolveName[] = "torch.linalg.solve", kCholeskyName[] = "linalg.cholesky";

// ---- inv ------------------------------------------------------------------------------
std::vector<Shape> shape_inv(const Args& a) {
  check_square(a[0].tensor(), "linalg.inv");
  return {a[0].tensor().sizes()};
}
void inv_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& A = a[0].tensor();
  Tensor& out = outs[0];
  copy_cast(out, A);
  const int n = int(A.size(-1));
  visit_lapack(A.dtype(), "linalg.inv", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<int> ipiv(size_t(std::max(n, 1)));
    for (int64_t b = 0; b < batch_of(A); ++b) {
      T* m = out.data<T>() + b * n * n;
      factor_or_throw(Factor::LU, A, b, m, ipiv.data(), kInvName);
      getri(n, m, ipiv.data());
    }
  });
}
// d inv(A) = -inv(A) dA inv(A): gA = -inv(A)^T g inv(A)^T.
std::vector<Tensor> grad_inv(const GradCtx& c) {
  Tensor invT = mT(c.out());
  return {neg(matmul(matmul(invT, c.grad()), invT))};
}

// ---- det / slogdet ------------------------------------------------------------------------
std::vector<Shape> shape_det(const Args& a) {
  check_square(a[0].tensor(), "linalg.det");
  return {batch_shape(a[0].tensor())};
}
std::vector<Shape> shape_slogdet(const Args& a) {
  check_square(a[0].tensor(), "linalg.slogdet");
  Shape s = batch_shape(a[0].tensor());
  return {s, s};
}
std::vector<DType> dtype_two_like_self(const Args& a) { return {a[0].tensor().dtype(), a[0].tensor().dtype()}; }

// Per matrix: the sign of the determinant (0 when singular) and log |det|.
template <class T>
std::pair<T, T> sign_logabsdet(T* lu, int n, int* ipiv) {
  getrf(n, lu, ipiv);
  T sign = 1, logabs = 0;
  for (int i = 0; i < n; ++i) {
    T d = lu[i * n + i];
    if (ipiv[i] != i + 1) sign = -sign;
    if (d < 0) sign = -sign;
    if (d == 0) return {T(0), -std::numeric_limits<T>::infinity()};
    logabs += std::log(std::abs(d));
  }
  return {sign, logabs};
}
template <bool Slog>
void det_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& A = a[0].tensor();
  Tensor lu = dense_copy(A);
  const int n = int(A.size(-1));
  visit_lapack(A.dtype(), "linalg.det", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<int> ipiv(size_t(std::max(n, 1)));
    for (int64_t b = 0; b < batch_of(A); ++b) {
      T* m = lu.data<T>() + b * n * n;
      if (Slog) {
        auto [sign, logabs] = sign_logabsdet(m, n, ipiv.data());
        outs[0].data<T>()[b] = sign;
        outs[1].data<T>()[b] = logabs;
        continue;
      }
      // The product directly (not exp of the log): PyTorch's rounding, and no overflow to inf early.
      getrf(n, m, ipiv.data());
      T det = 1;
      for (int i = 0; i < n; ++i) det *= ipiv[i] != i + 1 ? -m[i * n + i] : m[i * n + i];
      outs[0].data<T>()[b] = det;
    }
  });
}
Tensor unsqueeze2(const Tensor& t) { return unsqueeze(unsqueeze(t, -1), -1); }
// d det(A) = det(A) tr(inv(A) dA): gA = g det inv(A)^T.
std::vector<Tensor> grad_det(const GradCtx& c) {
  return {mul(unsqueeze2(mul(c.grad(), c.out())), mT(invoke("_linalg_inv", {c.in(0)})))};
}
// Only logabsdet carries a gradient: g inv(A)^T.
std::vector<Tensor> grad_slogdet(const GradCtx& c) {
  return {mul(unsqueeze2(c.grad(1)), mT(invoke("_linalg_inv", {c.in(0)})))};
}

// ---- solve --------------------------------------------------------------------------------
// _linalg_solve(A, B): A [..., n, n] and B [..., n, k] with equal batch shapes (linalg_solve
// broadcasts and handles vectors and left=False).
std::vector<Shape> shape_solve(const Args& a) {
  const Tensor &A = a[0].tensor(), &B = a[1].tensor();
  check_square(A, "torch.linalg.solve");
  KILN_CHECK(A.dtype() == B.dtype(), Runtime,
             "torch.linalg.solve: Expected A and B to have the same dtype, but found A of type ",
             dtype_legacy_name(A.dtype()), " and B of type ", dtype_legacy_name(B.dtype()), " instead");
  return {B.sizes()};
}
void solve_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &A = a[0].tensor(), &B = a[1].tensor();
  Tensor lu = dense_copy(A), rhs = dense_copy(B);
  const int n = int(A.size(-1)), k = int(B.size(-1));
  visit_lapack(A.dtype(), "torch.linalg.solve", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<int> ipiv(size_t(std::max(n, 1)));
    std::vector<T> col(size_t(n) * size_t(k));
    for (int64_t b = 0; b < batch_of(A); ++b) {
      T* m = lu.data<T>() + b * n * n;  // A^T to LAPACK: solve with its transpose
      factor_or_throw(Factor::LU, A, b, m, ipiv.data(), kSolveName);
      const T* src = rhs.data<T>() + b * n * k;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < k; ++j) col[size_t(j) * size_t(n) + size_t(i)] = src[i * k + j];
      getrs('T', n, k, m, ipiv.data(), col.data());
      T* dst = outs[0].data<T>() + b * n * k;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < k; ++j) dst[i * k + j] = col[size_t(j) * size_t(n) + size_t(i)];
    }
  });
}
// X = A^-1 B: gB = A^-T g, gA = -gB X^T.
std::vector<Tensor> grad_solve(const GradCtx& c) {
  Tensor gB = invoke("_linalg_solve", {mT(c.in(0)), c.grad()});
  Tensor gA = c.need(0) ? neg(matmul(gB, mT(c.out()))) : Tensor();
  return {gA, c.need(1) ? gB : Tensor()};
}
// linalg_solve(A, B, *, left=True): B is a vector (or a batch of them) when it is 1-D or has
// A's batch shape without the last dim, as PyTorch decides; batch dims broadcast.
std::vector<Tensor> solve_composite(const Args& a) {
  Tensor A = a[0].tensor(), B = a[1].tensor();
  check_square(A, "torch.linalg.solve");
  if (!a[2].to_bool()) {
    KILN_CHECK(B.dim() >= 2, Runtime,
               "torch.linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In "
               "this case linalg.solve is equivalent to B / A.squeeze(-1)");
    return {mT(invoke("linalg_solve", {mT(A), mT(B)}))};
  }
  const bool vector =
      B.dim() == 1 || (B.dim() == A.dim() - 1 && B.sizes() == Shape(A.sizes().begin(), A.sizes().end() - 1));
  if (vector) B = unsqueeze(B, -1);
  KILN_CHECK(B.dim() >= 2 && B.size(-2) == A.size(-1), Runtime,
             "torch.linalg.solve: Incompatible shapes of A and B for the equation AX = B (",
             shape_str(A.sizes()), " and ", shape_str(B.sizes()), ")");
  Shape batch = broadcast_shapes(batch_shape(A), batch_shape(B));
  Shape a_size = batch, b_size = batch;
  a_size.insert(a_size.end(), {A.size(-2), A.size(-1)});
  b_size.insert(b_size.end(), {B.size(-2), B.size(-1)});
  Tensor X = invoke("_linalg_solve", {expand(A, a_size), expand(B, b_size)});
  return {as_node(vector ? squeeze(X, Shape{-1}) : X, "LinalgSolveExBackward0")};
}

// ---- qr -------------------------------------------------------------------------------------
std::vector<Shape> shape_qr(const Args& a) {
  const Tensor& A = a[0].tensor();
  KILN_CHECK(A.dim() >= 2, Runtime, "linalg.qr: The input tensor A must have at least 2 dimensions.");
  check_float(A, "linalg.qr");
  const std::string& mode = a[1].str();
  KILN_CHECK(mode == "reduced" || mode == "complete" || mode == "r", Runtime,
             "qr received unrecognized mode '", mode, "' but expected one of 'reduced' (default), 'r', or 'complete'");
  int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  Shape q = batch_shape(A), r = q;
  if (mode == "r") q = {0};
  else q.insert(q.end(), {m, mode == "complete" ? m : k});
  r.insert(r.end(), {mode == "complete" ? m : k, n});
  return {q, r};
}
void qr_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& A = a[0].tensor();
  Tensor src = dense_copy(A);
  const std::string& mode = a[1].str();
  const int m = int(A.size(-2)), n = int(A.size(-1)), k = std::min(m, n);
  const int qcols = mode == "complete" ? m : k, rrows = mode == "complete" ? m : k;
  visit_lapack(A.dtype(), "linalg.qr", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int cols = std::max(n, qcols);  // geqrf's columns, then orgqr's in the same buffer
    std::vector<T> w(size_t(m) * size_t(std::max(cols, 1))), tau(size_t(std::max(k, 1)));
    for (int64_t b = 0; b < batch_of(A); ++b) {
      const T* s = src.data<T>() + int64_t(b) * m * n;
      std::fill(w.begin(), w.end(), T(0));
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) w[size_t(j) * m + size_t(i)] = s[i * n + j];
      if (k > 0) geqrf(m, n, w.data(), tau.data());
      T* r = outs[1].data<T>() + b * rrows * n;
      for (int i = 0; i < rrows; ++i)
        for (int j = 0; j < n; ++j) r[i * n + j] = j >= i ? w[size_t(j) * m + size_t(i)] : T(0);
      if (mode == "r") continue;
      orgqr(m, qcols, k, w.data(), tau.data());
      T* q = outs[0].data<T>() + b * m * qcols;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < qcols; ++j) q[i * qcols + j] = w[size_t(j) * m + size_t(i)];
    }
  });
}
// The symmetric matrix whose lower triangle is M's.
Tensor lower_to_symmetric(const Tensor& M) {
  Tensor strict = tril(M, -1);
  return add(tril(M), mT(strict));
}
// Square or tall A = Q R (reduced): gA = (gQ + Q sym_lower(R gR^T - gQ^T Q)) R^-T, the formula of
// Walter and Lehmann; R^-T by a triangular solve.
Tensor qr_grad_tall(const Tensor& Q, const Tensor& R, const Tensor& gQ, const Tensor& gR) {
  Tensor M = sub(matmul(R, mT(gR)), matmul(mT(gQ), Q));
  Tensor b = add(gQ, matmul(Q, lower_to_symmetric(M)));
  return mT(call_op("linalg_solve_triangular", std::vector<Value>{R, mT(b)}, {{"upper", true}})[0]);
}
// A wide A = [X | Y] has X = Q U square and V = Q^T Y: Y's gradient is Q gV, and V feeds Q.
std::vector<Tensor> grad_qr(const GradCtx& c) {
  const std::string& mode = c.args[1].str();
  KILN_CHECK(mode != "r", Runtime,
             "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
             "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
  const Tensor &Q = c.out(0), &R = c.out(1), &gQ = c.grad(0), &gR = c.grad(1);
  const int64_t m = Q.size(-2), n = R.size(-1);
  KILN_CHECK(!(mode == "complete" && m > n), Runtime,
             "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
  if (m >= n) return {qr_grad_tall(Q, R, gQ, gR)};
  Tensor V = narrow(R, -1, m, n - m), gV = narrow(gR, -1, m, n - m);
  Tensor Y = matmul(Q, V);
  Tensor gX = qr_grad_tall(Q, narrow(R, -1, 0, m), add(gQ, matmul(Y, mT(gV))), narrow(gR, -1, 0, m));
  return {cat({gX, matmul(Q, gV)}, -1)};
}

// ---- cholesky ------------------------------------------------------------------------------
std::vector<Shape> shape_cholesky(const Args& a) {
  check_square(a[0].tensor(), "linalg.cholesky");
  return {a[0].tensor().sizes()};
}
// A symmetric matrix is its own transpose, so LAPACK's upper factor U (A = U^T U, column-major)
// reads row-major as L = U^T; only the lower triangle of A is read, as PyTorch's.
// The _ex variant (Ex) records potrf's info in outs[1] instead of raising; a failed factor
// keeps what LAPACK wrote, the failing diagonal included, as PyTorch's does.
template <bool Ex>
void cholesky_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& A = a[0].tensor();
  Tensor& out = outs[0];
  copy_cast(out, A);
  const int n = int(A.size(-1));
  const bool upper = a[1].to_bool();
  visit_lapack(A.dtype(), "linalg.cholesky", [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t b = 0; b < batch_of(A); ++b) {
      T* m = out.data<T>() + b * n * n;
      if constexpr (Ex) outs[1].data<int32_t>()[b] = n == 0 ? 0 : potrf('U', n, m);
      else factor_or_throw(Factor::Cholesky, A, b, m, nullptr, kCholeskyName);
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
          m[i * n + j] = upper ? m[j * n + i] : T(0);
          if (upper) m[j * n + i] = T(0);
        }
    }
  });
}
// _linalg_cholesky_ex(A, upper, check_errors) -> (L, info [..]).
std::vector<Shape> shape_cholesky_ex(const Args& a) {
  const Tensor& A = a[0].tensor();
  KILN_CHECK(is_floating(A.dtype()), NotImplemented,
             "linalg.cholesky: Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(A.dtype()));
  check_square(A, "linalg.cholesky");
  return {A.sizes(), batch_shape(A)};
}
std::vector<DType> dtype_cholesky_ex(const Args& a) { return {a[0].tensor().dtype(), DType::Int32}; }
constexpr char kCholeskyExName[] = "linalg.cholesky_ex";
void check_cholesky_ex(const Args& a) {
  if (a[2].to_bool()) check_factorable<Factor::Cholesky, kCholeskyExName>(a);
}
// PyTorch's cholesky_backward: phi = tril(L^T gL) with its diagonal halved,
// gA = L^-T phi L^-1, symmetrised.
std::vector<Tensor> grad_cholesky(const GradCtx& c) {
  const bool upper = c.args[1].to_bool();
  Tensor L = upper ? mT(c.out()) : c.out(), gL = upper ? mT(c.grad()) : c.grad();
  Tensor phi = tril(matmul(mT(L), gL));
  phi = sub(phi, mul(mul(phi, eye(L.size(-1), std::nullopt, L.dtype())), 0.5));
  Tensor Linv = invoke("_linalg_inv", {L});
  Tensor gA = matmul(matmul(mT(Linv), phi), Linv);
  return {mul(add(gA, mT(gA)), 0.5)};
}

// ---- matrix_power ------------------------------------------------------------------------
// A^n by repeated squaring; A^0 is the identity, a negative n inverts first.
std::vector<Tensor> matrix_power_composite(const Args& a) {
  Tensor A = a[0].tensor();
  KILN_CHECK(A.dim() >= 2 && A.size(-1) == A.size(-2), Runtime,
             "linalg.matrix_power: A must be batches of square matrices, but they are ", A.dim() >= 2 ? A.size(-2) : 0,
             " by ", A.dim() >= 1 ? A.size(-1) : 0, " matrices");
  int64_t n = a[1].to_int();
  if (n == 0) return {add(mul(A, 0.0), eye(A.size(-1), std::nullopt, A.dtype()))};
  if (n < 0) {
    A = invoke("linalg_inv", {A});
    n = -n;
  }
  Tensor result, base = A;
  for (; n > 0; n >>= 1) {
    if (n & 1) result = result.defined() ? matmul(result, base) : base;
    if (n > 1) base = matmul(base, base);
  }
  return {result};
}

// ---- the public spellings: PyTorch's node names over the kernels -----------------------------
template <const char* Op, const char* Node>
std::vector<Tensor> named_composite(const Args& a) {
  std::vector<Tensor> outs = call_op(Op, std::vector<Value>(a.begin(), a.end()));
  for (Tensor& o : outs) o = as_node(o, Node);
  return outs;
}
constexpr char kInv[] = "_linalg_inv", kInvNode[] = "LinalgInvExBackward0";
constexpr char kDet[] = "_linalg_det", kDetNode[] = "LinalgDetBackward0";
constexpr char kSlogdet[] = "_linalg_slogdet", kSlogdetNode[] = "LinalgSlogdetBackward0";
constexpr char kCholesky[] = "_linalg_cholesky", kCholeskyNode[] = "LinalgCholeskyExBackward0";
// linalg_cholesky_ex: the factor gets PyTorch's node; info has none.
std::vector<Tensor> cholesky_ex_composite(const Args& a) {
  std::vector<Tensor> outs = call_op("_linalg_cholesky_ex", std::vector<Value>(a.begin(), a.end()));
  return {as_node(outs[0], kCholeskyNode), outs[1]};
}
// logdet = log|det| where det > 0, NaN where it is negative, -inf where 0.
std::vector<Tensor> logdet_composite(const Args& a) {
  std::vector<Tensor> sl = call_op("_linalg_slogdet", std::vector<Value>{a[0]});
  Tensor nan = scalar_tensor(std::nan(""), sl[1].dtype(), true);
  return {where(lt(sl[0], scalar_tensor(0, sl[0].dtype(), true)), nan, sl[1])};
}

}  // namespace
}  // namespace ops

void register_lapack_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind E = OpKind::Extern, C = OpKind::Composite;
  t.add({.schema_text = "_linalg_inv(Tensor A) -> Tensor", .kind = E, .shape = shape_inv, .dtype = dtype_like_self,
         .kernel = inv_kernel, .grad = grad_inv, .saves = save_out(0),
         .check = check_factorable<Factor::LU, kInvName>});
  t.add({.schema_text = "linalg_inv(Tensor A) -> Tensor", .kind = C, .composite = named_composite<kInv, kInvNode>});
  t.add({.schema_text = "inverse(Tensor self) -> Tensor", .kind = C, .composite = named_composite<kInv, kInvNode>});
  t.add({.schema_text = "_linalg_det(Tensor A) -> Tensor", .kind = E, .shape = shape_det, .dtype = dtype_like_self,
         .kernel = det_kernel<false>, .grad = grad_det, .saves = save_in(0) | save_out(0)});
  t.add({.schema_text = "linalg_det(Tensor A) -> Tensor", .kind = C, .composite = named_composite<kDet, kDetNode>});
  t.add({.schema_text = "det(Tensor self) -> Tensor", .kind = C, .composite = named_composite<kDet, kDetNode>});
  t.add({.schema_text = "_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", .kind = E,
         .shape = shape_slogdet, .dtype = dtype_two_like_self, .kernel = det_kernel<true>, .grad = grad_slogdet,
         .saves = save_in(0)});
  t.add({.schema_text = "linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", .kind = C,
         .composite = named_composite<kSlogdet, kSlogdetNode>});
  t.add({.schema_text = "slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", .kind = C,
         .composite = named_composite<kSlogdet, kSlogdetNode>});
  t.add({.schema_text = "logdet(Tensor self) -> Tensor", .kind = C, .composite = logdet_composite});
  t.add({.schema_text = "_linalg_solve(Tensor A, Tensor B) -> Tensor", .kind = E, .shape = shape_solve,
         .dtype = dtype_like_self, .kernel = solve_kernel, .grad = grad_solve, .saves = save_in(0) | save_out(0),
         .check = check_factorable<Factor::LU, kSolveName>});
  t.add({.schema_text = "linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", .kind = C,
         .composite = solve_composite});
  t.add({.schema_text = "linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)", .kind = E,
         .shape = shape_qr, .dtype = dtype_two_like_self, .kernel = qr_kernel, .grad = grad_qr,
         .saves = save_out(0) | save_out(1)});
  t.add({.schema_text = "_linalg_cholesky(Tensor A, bool upper=False) -> Tensor", .kind = E,
         .shape = shape_cholesky, .dtype = dtype_like_self, .kernel = cholesky_kernel<false>,
         .grad = grad_cholesky, .saves = save_out(0), .check = check_factorable<Factor::Cholesky, kCholeskyName>});
  t.add({.schema_text = "_linalg_cholesky_ex(Tensor A, bool upper=False, bool check_errors=False) -> (Tensor L, "
                        "Tensor info)",
         .kind = E, .shape = shape_cholesky_ex, .dtype = dtype_cholesky_ex, .kernel = cholesky_kernel<true>,
         .grad = grad_cholesky, .saves = save_out(0), .check = check_cholesky_ex});
  t.add({.schema_text = "linalg_cholesky_ex(Tensor A, *, bool upper=False, bool check_errors=False) -> (Tensor L, "
                        "Tensor info)",
         .kind = C, .composite = cholesky_ex_composite});
  t.add({.schema_text = "linalg_cholesky(Tensor A, *, bool upper=False) -> Tensor", .kind = C,
         .composite = named_composite<kCholesky, kCholeskyNode>});
  t.add({.schema_text = "linalg_matrix_power(Tensor A, int n) -> Tensor", .kind = C,
         .composite = matrix_power_composite});
  t.add({.schema_text = "matrix_power(Tensor self, int n) -> Tensor", .kind = C, .composite = matrix_power_composite});
}

}  // namespace kiln
