// The spectral LAPACK ops: svd (gesdd), eigh (syevd), lstsq (gelsy, PyTorch's
// CPU default driver), and the composites over them: svdvals, eigvalsh, pinv,
// matrix_rank. LAPACK reads column-major, so the kernels hand it column-major
// copies (a row-major matrix would read as its transpose).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/ops/lapack_util.h"

extern "C" {
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s, float* u,
             const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork, int* iwork, int* info,
             size_t jobz_len);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
             const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info,
             size_t jobz_len);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len);
void sgelsy_(const int* m, const int* n, const int* nrhs, float* a, const int* lda, float* b, const int* ldb,
             int* jpvt, const float* rcond, int* rank, float* work, const int* lwork, int* info);
void dgelsy_(const int* m, const int* n, const int* nrhs, double* a, const int* lda, double* b, const int* ldb,
             int* jpvt, const double* rcond, int* rank, double* work, const int* lwork, int* info);
}

namespace kiln {
namespace ops {
namespace {
using namespace lapack;

// ---- typed calls, each with its workspace query ------------------------------------------
template <class T>
int gesdd(char jobz, int m, int n, T* a, T* s, T* u, int ldu, T* vt, int ldvt) {
  const int k = std::min(m, n);
  std::vector<int> iwork(size_t(std::max(1, 8 * k)));
  int info = 0, lwork = -1;
  T query = 0;
  auto call = [&](T* work) {
    if constexpr (std::is_same_v<T, float>)
      sgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork.data(), &info, 1);
    else
      dgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork.data(), &info, 1);
  };
  call(&query);
  lwork = std::max(1, int(query));
  std::vector<T> work(static_cast<size_t>(lwork));
  call(work.data());
  return info;
}
template <class T>
int syevd(char uplo, int n, T* a, T* w) {
  const char jobz = 'V';
  int info = 0, lwork = -1, liwork = -1, iquery = 0;
  T query = 0;
  std::vector<T> work;
  std::vector<int> iwork;
  auto call = [&](T* wk, int* iwk) {
    if constexpr (std::is_same_v<T, float>)
      ssyevd_(&jobz, &uplo, &n, a, &n, w, wk, &lwork, iwk, &liwork, &info, 1, 1);
    else
      dsyevd_(&jobz, &uplo, &n, a, &n, w, wk, &lwork, iwk, &liwork, &info, 1, 1);
  };
  call(&query, &iquery);
  lwork = std::max(1, int(query));
  liwork = std::max(1, iquery);
  work.resize(size_t(lwork));
  iwork.resize(size_t(liwork));
  call(work.data(), iwork.data());
  return info;
}
template <class T>
int gelsy(int m, int n, int nrhs, T* a, T* b, int ldb, T rcond) {
  std::vector<int> jpvt(size_t(std::max(n, 1)), 0);
  int info = 0, rank = 0, lwork = -1;
  T query = 0;
  auto call = [&](T* work) {
    if constexpr (std::is_same_v<T, float>)
      sgelsy_(&m, &n, &nrhs, a, &m, b, &ldb, jpvt.data(), &rcond, &rank, work, &lwork, &info);
    else
      dgelsy_(&m, &n, &nrhs, a, &m, b, &ldb, jpvt.data(), &rcond, &rank, work, &lwork, &info);
  };
  call(&query);
  lwork = std::max(1, int(query));
  std::vector<T> work(static_cast<size_t>(lwork));
  call(work.data());
  return rank;
}

// ---- svd -------------------------------------------------------------------------------------
struct SvdDims {
  int m, n, k, ucols, vrows;
};
SvdDims svd_dims(const Tensor& A, bool full) {
  const int m = int(A.size(-2)), n = int(A.size(-1)), k = std::min(m, n);
  return {m, n, k, full ? m : k, full ? n : k};
}
std::vector<Shape> shape_svd(const Args& a) {
  const Tensor& A = a[0].tensor();
  check_matrix(A, "linalg.svd");
  SvdDims d = svd_dims(A, a[1].to_bool());
  Shape u = batch_shape(A), s = u, vh = u;
  u.insert(u.end(), {d.m, d.ucols});
  s.push_back(d.k);
  vh.insert(vh.end(), {d.vrows, d.n});
  return {u, s, vh};
}
std::vector<DType> dtype_three_like_self(const Args& a) {
  DType d = a[0].tensor().dtype();
  return {d, d, d};
}
void svd_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& A = a[0].tensor();
  Tensor src = dense_copy(A);
  const bool full = a[1].to_bool();
  SvdDims d = svd_dims(A, full);
  visit_lapack(A.dtype(), "linalg.svd", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> col(size_t(d.m) * size_t(d.n)), u(size_t(d.m) * size_t(d.ucols)), vt(size_t(d.vrows) * d.n);
    for (int64_t b = 0; b < batch_of(A); ++b) {
      const T* m = src.data<T>() + b * d.m * d.n;
      T* s = outs[1].data<T>() + b * d.k;
      if (d.k == 0) continue;
      // A itself in column-major, as PyTorch hands it to LAPACK (the transposed problem would
      // give the same singular values but may flip singular vectors' signs).
      for (int i = 0; i < d.m; ++i)
        for (int j = 0; j < d.n; ++j) col[size_t(j) * d.m + size_t(i)] = m[i * d.n + j];
      int info = gesdd(full ? 'A' : 'S', d.m, d.n, col.data(), s, u.data(), d.m, vt.data(), d.vrows);
      KILN_CHECK(info == 0, Runtime, "linalg.svd: ", batch_prefix(A, b),
                 "The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
                 "repeated singular values (error code: ", info, ").");
      T* pu = outs[0].data<T>() + b * d.m * d.ucols;
      T* pvh = outs[2].data<T>() + b * d.vrows * d.n;
      for (int i = 0; i < d.m; ++i)
        for (int j = 0; j < d.ucols; ++j) pu[i * d.ucols + j] = u[size_t(j) * d.m + size_t(i)];
      for (int i = 0; i < d.vrows; ++i)
        for (int j = 0; j < d.n; ++j) pvh[i * d.n + j] = vt[size_t(j) * d.vrows + size_t(i)];
    }
  });
}

// Derivative for distinct, nonzero singular values (Townsend, "Differentiating the singular
// value decomposition"), A = U S V^T with U m x k, V n x k:
//   gA = U [J S + diag(gS) + S K] V^T + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T),
//   J = F o (U^T gU - gU^T U), K = F o (V^T gV - gV^T V), F_ij = 1 / (s_j^2 - s_i^2), F_ii = 0.
// With full_matrices the extra columns of U and rows of Vh are arbitrary: only the first k count.
std::vector<Tensor> grad_svd(const GradCtx& c) {
  const Tensor& S = c.out(1);
  const int64_t k = S.size(-1);
  Tensor U = narrow(c.out(0), -1, 0, k), Vh = narrow(c.out(2), -2, 0, k);
  Tensor gS = c.grad(1);
  if (!c.flowed(0) && !c.flowed(2)) return {matmul(mul(U, unsqueeze(gS, -2)), Vh)};
  Tensor gU = narrow(c.grad(0), -1, 0, k), gV = mT(narrow(c.grad(2), -2, 0, k)), V = mT(Vh);
  const DType d = S.dtype();
  Tensor off = logical_not(eye(k, std::nullopt, DType::Bool));
  Tensor s2 = mul(S, S);
  Tensor gap = sub(unsqueeze(s2, -2), unsqueeze(s2, -1));  // s_j^2 - s_i^2
  Tensor F = where(off, div(scalar_tensor(1, d, true), where(off, gap, scalar_tensor(1, d, true))),
                   scalar_tensor(0, d, true));
  Tensor UtgU = matmul(mT(U), gU), VtgV = matmul(mT(V), gV);
  Tensor J = mul(F, sub(UtgU, mT(UtgU))), K = mul(F, sub(VtgV, mT(VtgV)));
  Tensor row_s = unsqueeze(S, -2), col_s = unsqueeze(S, -1);
  Tensor inner = add(add(mul(J, row_s), mul(col_s, K)), mul(unsqueeze(gS, -1), eye(k, std::nullopt, d)));
  Tensor gA = matmul(matmul(U, inner), Vh);
  const int64_t m = U.size(-2), n = V.size(-2);
  if (m > k) gA = add(gA, matmul(div(sub(gU, matmul(U, UtgU)), row_s), Vh));  // (I - U U^T) gU S^-1 V^T
  if (n > k) gA = add(gA, matmul(U, mT(div(sub(gV, matmul(V, VtgV)), row_s))));  // U S^-1 gV^T (I - V V^T)
  return {gA};
}

// ---- eigh ------------------------------------------------------------------------------------
std::vector<Shape> shape_eigh(const Args& a) {
  const Tensor& A = a[0].tensor();
  check_square(A, "linalg.eigh");
  const std::string& uplo = a[1].str();
  KILN_CHECK(uplo == "L" || uplo == "U" || uplo == "l" || uplo == "u", Runtime,
             "Expected UPLO argument to be 'L' or 'U', but got ", uplo);
  Shape w = batch_shape(A);
  w.push_back(A.size(-1));
  return {w, A.sizes()};
}
std::vector<DType> dtype_two_like_self(const Args& a) { return {a[0].tensor().dtype(), a[0].tensor().dtype()}; }
void eigh_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& A = a[0].tensor();
  Tensor work = dense_copy(A);
  const int n = int(A.size(-1));
  // A's lower triangle, row-major, is the upper one of the column-major A^T LAPACK sees.
  const bool lower = a[1].str() == "L" || a[1].str() == "l";
  visit_lapack(A.dtype(), "linalg.eigh", [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t b = 0; b < batch_of(A); ++b) {
      T* m = work.data<T>() + b * n * n;
      int info = n == 0 ? 0 : syevd(lower ? 'U' : 'L', n, m, outs[0].data<T>() + b * n);
      KILN_CHECK(info == 0, Runtime, "linalg.eigh: ", batch_prefix(A, b),
                 "The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
                 "repeated eigenvalues (error code: ", info, ").");
      T* q = outs[1].data<T>() + b * n * n;  // column j of LAPACK's result is eigenvector j
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) q[i * n + j] = m[j * n + i];
    }
  });
}
// A = Q diag(L) Q^T. gA = Q (diag(gL) + F o (Q^T gQ)) Q^T with F_ij = 1 / (L_j - L_i) off the
// diagonal (PyTorch's linalg_eig_backward for symmetric input), made symmetric.
std::vector<Tensor> grad_eigh(const GradCtx& c) {
  const Tensor &L = c.out(0), &Q = c.out(1);
  Tensor inner = mul(unsqueeze(c.grad(0), -1), eye(L.size(-1), std::nullopt, L.dtype()));
  if (c.flowed(1)) {
    Tensor gap = sub(unsqueeze(L, -2), unsqueeze(L, -1));  // L_j - L_i
    Tensor off = logical_not(eye(L.size(-1), std::nullopt, DType::Bool));
    Tensor f = where(off, div(scalar_tensor(1, L.dtype(), true), gap), scalar_tensor(0, L.dtype(), true));
    inner = add(inner, mul(f, matmul(mT(Q), c.grad(1))));
  }
  Tensor gA = matmul(matmul(Q, inner), mT(Q));
  return {mul(add(gA, mT(gA)), 0.5)};
}

// ---- lstsq -------------------------------------------------------------------------------------
// _linalg_lstsq(A [.., m, n], B [.., m, k], rcond) -> (solution [.., n, k], rank [..]): gelsy.
std::vector<Shape> shape_lstsq(const Args& a) {
  const Tensor &A = a[0].tensor(), &B = a[1].tensor();
  check_matrix(A, "torch.linalg.lstsq");
  KILN_CHECK(A.dtype() == B.dtype(), Runtime, "torch.linalg.lstsq: Expected input and other to have the same "
             "dtype, but got input's dtype ", dtype_legacy_name(A.dtype()), " and other's dtype ",
             dtype_legacy_name(B.dtype()));
  KILN_CHECK(B.dim() == A.dim() && B.size(-2) == A.size(-2) && batch_shape(A) == batch_shape(B), Runtime,
             "torch.linalg.lstsq: input.size(-2) should match other.size(-2)");
  Shape sol = batch_shape(A);
  sol.insert(sol.end(), {A.size(-1), B.size(-1)});
  return {sol, batch_shape(A)};
}
std::vector<DType> dtype_lstsq(const Args& a) { return {a[0].tensor().dtype(), DType::Int64}; }
void lstsq_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &A = a[0].tensor(), &B = a[1].tensor();
  Tensor src_a = dense_copy(A), src_b = dense_copy(B);
  const int m = int(A.size(-2)), n = int(A.size(-1)), k = int(B.size(-1)), ldb = std::max({m, n, 1});
  visit_lapack(A.dtype(), "torch.linalg.lstsq", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T rcond = a[2].is_none() ? std::numeric_limits<T>::epsilon() * T(std::max(m, n)) : T(a[2].to_double());
    std::vector<T> ca(size_t(m) * size_t(n)), cb(size_t(ldb) * size_t(std::max(k, 1)));
    for (int64_t b = 0; b < batch_of(A); ++b) {
      const T* pa = src_a.data<T>() + b * m * n;
      const T* pb = src_b.data<T>() + b * m * k;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) ca[size_t(j) * m + size_t(i)] = pa[i * n + j];
      std::fill(cb.begin(), cb.end(), T(0));
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < k; ++j) cb[size_t(j) * ldb + size_t(i)] = pb[i * k + j];
      int rank = m == 0 || n == 0 ? 0 : gelsy(m, n, k, ca.data(), cb.data(), ldb, rcond);
      T* x = outs[0].data<T>() + b * n * k;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < k; ++j) x[i * k + j] = cb[size_t(j) * ldb + size_t(i)];
      outs[1].data<int64_t>()[b] = rank;
    }
  });
}
// X = pinv(A) B for full-rank A: gB = pinv(A)^T gX, and A's gradient is pinv's for G = gX B^T
// (from Golub and Pereyra's dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P):
//   gA = -P^T G P^T + (I - A P) G^T P P^T + P^T P G^T (I - P A).
std::vector<Tensor> grad_lstsq(const GradCtx& c) {
  const Tensor &A = c.in(0), &B = c.in(1), &gX = c.grad(0);
  Tensor P = invoke("linalg_pinv", {A});
  Tensor gA, gB = c.need(1) ? matmul(mT(P), gX) : Tensor();
  if (c.need(0)) {
    Tensor G = matmul(gX, mT(B)), Gt = mT(G), Pt = mT(P);
    Tensor AP = matmul(A, P), PA = matmul(P, A);
    gA = neg(matmul(matmul(Pt, G), Pt));
    gA = add(gA, matmul(sub(matmul(Gt, P), matmul(AP, matmul(Gt, P))), Pt));  // (I - A P) G^T P P^T
    gA = add(gA, matmul(matmul(Pt, P), sub(Gt, matmul(Gt, PA))));             // P^T P G^T (I - P A)
  }
  return {gA, gB};
}
// lstsq(A, B, rcond=None, *, driver=None): (solution, residuals, rank, singular_values) as
// PyTorch's default gelsy driver returns them (residuals and singular values empty).
std::vector<Tensor> lstsq_composite(const Args& a) {
  Tensor A = a[0].tensor(), B = a[1].tensor();
  KILN_CHECK(a[3].is_none() || a[3].str() == "gelsy", NotImplemented,
             "kiln: torch.linalg.lstsq supports driver='gelsy' (PyTorch's CPU default) only, got driver='",
             a[3].str(), "'");
  const bool vector = B.dim() == A.dim() - 1;
  if (vector) B = unsqueeze(B, -1);
  std::vector<Tensor> r = call_op("_linalg_lstsq", std::vector<Value>{A, B, a[2]});
  Tensor empty = empty_tensor({0}, A.dtype());
  Tensor x = as_node(vector ? squeeze(r[0], Shape{-1}) : r[0], "LinalgLstsqBackward0");
  return {x, empty, r[1], empty_tensor({0}, A.dtype())};
}

// ---- composites ------------------------------------------------------------------------------
std::vector<Tensor> svdvals_composite(const Args& a) {
  return {call_op("linalg_svd", std::vector<Value>{a[0], false})[1]};
}
std::vector<Tensor> eigvalsh_composite(const Args& a) {
  return {call_op("linalg_eigh", std::vector<Value>{a[0], a[1]})[0]};
}
// The default tolerance of pinv and matrix_rank: max(atol, rtol * largest singular value),
// rtol = eps * max(m, n) when neither is given.
Tensor svd_cutoff(const Tensor& A, const Tensor& S, const Value& atol, const Value& rtol) {
  const double eps = A.dtype() == DType::Float64 ? std::numeric_limits<double>::epsilon()
                                                 : double(std::numeric_limits<float>::epsilon());
  const double r = !rtol.is_none() ? rtol.to_double()
                                   : atol.is_none() ? eps * double(std::max(A.size(-1), A.size(-2))) : 0.0;
  Tensor smax = S.size(-1) == 0 ? zeros(batch_shape(A), A.dtype()) : amax(S, Shape{-1}, false);
  Tensor tol = mul(smax, r);
  return atol.is_none() ? tol : maximum(tol, scalar_tensor(atol.to_double(), A.dtype(), true));
}
// pinv(A, *, atol=None, rtol=None, hermitian=False) = V diag(1/S where S > tol) U^T.
std::vector<Tensor> pinv_composite(const Args& a) {
  const Tensor& A = a[0].tensor();
  std::vector<Tensor> usv = call_op("linalg_svd", std::vector<Value>{A, false});
  Tensor tol = unsqueeze(svd_cutoff(A, usv[1], a[1], a[2]), -1);
  Tensor zero = scalar_tensor(0, A.dtype(), true);
  Tensor s_inv = where(gt(usv[1], tol), reciprocal(usv[1]), zero);
  return {matmul(mul(mT(usv[2]), unsqueeze(s_inv, -2)), mT(usv[0]))};
}
// matrix_rank(A, *, atol=None, rtol=None, hermitian=False): singular values above the cutoff.
std::vector<Tensor> matrix_rank_composite(const Args& a) {
  const Tensor& A = a[0].tensor();
  Tensor S = call_op("linalg_svd", std::vector<Value>{A, false})[1];
  Tensor tol = unsqueeze(svd_cutoff(A, S, a[1], a[2]), -1);
  return {sum(gt(S, tol), Shape{-1}, false, DType::Int64)};
}

}  // namespace
}  // namespace ops

void register_lapack_spectral_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind E = OpKind::Extern, C = OpKind::Composite;
  t.add({.schema_text = "linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, "
                        "Tensor Vh)",
         .kind = E, .shape = shape_svd, .dtype = dtype_three_like_self, .kernel = svd_kernel,
         .grad = grad_svd, .saves = save_out(0) | save_out(1) | save_out(2)});
  t.add({.schema_text = "linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", .kind = C,
         .composite = svdvals_composite});
  t.add({.schema_text = "linalg_eigh(Tensor A, str UPLO='L') -> (Tensor eigenvalues, Tensor eigenvectors)",
         .kind = E, .shape = shape_eigh, .dtype = dtype_two_like_self, .kernel = eigh_kernel, .grad = grad_eigh,
         .saves = save_out(0) | save_out(1)});
  t.add({.schema_text = "linalg_eigvalsh(Tensor A, str UPLO='L') -> Tensor", .kind = C,
         .composite = eigvalsh_composite});
  t.add({.schema_text = "_linalg_lstsq(Tensor A, Tensor B, float? rcond=None) -> (Tensor solution, Tensor rank)",
         .kind = E, .shape = shape_lstsq, .dtype = dtype_lstsq, .kernel = lstsq_kernel,
         .grad = grad_lstsq, .saves = save_in(0) | save_in(1)});
  t.add({.schema_text = "linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> (Tensor "
                        "solution, Tensor residuals, Tensor rank, Tensor singular_values)",
         .kind = C, .composite = lstsq_composite});
  t.add({.schema_text = "linalg_pinv(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> "
                        "Tensor",
         .kind = C, .composite = pinv_composite, .grad_node = "LinalgPinvBackward0"});
  t.add({.schema_text = "linalg_matrix_rank(Tensor A, *, float? atol=None, float? rtol=None, bool hermitian=False) "
                        "-> Tensor",
         .kind = C, .composite = matrix_rank_composite});
}

}  // namespace kiln
