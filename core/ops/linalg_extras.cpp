// torch.linalg functions built on the core ones: vecdot, multi_dot (the
// cheapest product order, as PyTorch picks it), diagonal, solve_triangular
// (a solve with the unused triangle masked off), cond (from singular values
// or norms), and matrix_exp, the one with a kernel of its own: scaling and
// squaring of a degree-18 Taylor polynomial, in double precision.
#include <cmath>
#include <string>

#include "core/ops/lapack_util.h"

namespace kiln {
namespace ops {
namespace {

using lapack::batch_of;
using lapack::check_square;
using lapack::mT;

// ---- vecdot ---------------------------------------------------------------------------
// linalg_vecdot(Tensor x, Tensor y, *, int dim=-1): sum(x * y) along dim, broadcasting.
std::vector<Tensor> vecdot_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  KILN_CHECK(x.dtype() == y.dtype(), Runtime, "linalg.vecdot: Expected x and y to have the same dtype, but found x of ",
             "type ", dtype_legacy_name(x.dtype()), " and y of type ", dtype_legacy_name(y.dtype()), " instead");
  return {sum(mul(x, y), Shape{a[2].to_int()})};
}

// ---- multi_dot ------------------------------------------------------------------------
// The order with the fewest multiplications (the textbook matrix-chain
// program); ties keep the leftmost split, as PyTorch's loop does.
struct Chain {
  std::vector<int64_t> dims;                  // matrix i is dims[i] x dims[i+1]
  std::vector<std::vector<int64_t>> split;    // split[i][j]: the last left factor of i..j
};
Chain chain_order(const std::vector<Tensor>& ms) {
  const size_t n = ms.size();
  Chain c{{}, std::vector<std::vector<int64_t>>(n, std::vector<int64_t>(n, 0))};
  for (const Tensor& m : ms) c.dims.push_back(m.size(0));
  c.dims.push_back(ms.back().size(1));
  std::vector<std::vector<int64_t>> cost(n, std::vector<int64_t>(n, 0));
  for (size_t len = 1; len < n; ++len)
    for (size_t i = 0; i + len < n; ++i) {
      const size_t j = i + len;
      cost[i][j] = INT64_MAX;
      for (size_t k = i; k < j; ++k) {
        int64_t q = cost[i][k] + cost[k + 1][j] + c.dims[i] * c.dims[k + 1] * c.dims[j + 1];
        if (q < cost[i][j]) cost[i][j] = q, c.split[i][j] = int64_t(k);
      }
    }
  return c;
}
Tensor chain_product(const std::vector<Tensor>& ms, const Chain& c, size_t i, size_t j) {
  if (i == j) return ms[i];
  size_t k = size_t(c.split[i][j]);
  return mm(chain_product(ms, c, i, k), chain_product(ms, c, k + 1, j));
}
// linalg_multi_dot(Tensor[] tensors): the first may be a row vector and the
// last a column vector (1-D); the others are matrices.
std::vector<Tensor> multi_dot_composite(const Args& a) {
  std::vector<Tensor> ms = a[0].tensor_list();
  const size_t n = ms.size();
  KILN_CHECK(n >= 2, Runtime, "multi_dot(): expected at least 2 tensors but got ", n);
  const bool row = ms.front().dim() == 1, col = ms.back().dim() == 1;
  KILN_CHECK(row || ms.front().dim() == 2, Runtime, "multi_dot(): the first tensor must be 1D or 2D but got ",
             ms.front().dim(), "D");
  KILN_CHECK(col || ms.back().dim() == 2, Runtime, "multi_dot(): the last tensor must be 1D or 2D but got ",
             ms.back().dim(), "D");
  for (size_t i = 1; i + 1 < n; ++i)
    KILN_CHECK(ms[i].dim() == 2, Runtime, "multi_dot(): tensor ", i, " must be 2D but got ", ms[i].dim(), "D");
  if (row) ms.front() = unsqueeze(ms.front(), 0);
  if (col) ms.back() = unsqueeze(ms.back(), 1);
  for (size_t i = 0; i + 1 < n; ++i) {
    KILN_CHECK(ms[i].dtype() == ms[i + 1].dtype(), Runtime,
               "multi_dot(): all tensors must have be the same dtype but tensor 0 is ", dtype_name(ms[0].dtype()),
               " and tensor ", i + 1, " ", dtype_name(ms[i + 1].dtype()));
    KILN_CHECK(ms[i].size(1) == ms[i + 1].size(0), Runtime, "multi_dot(): tensors ", i, " and ", i + 1,
               " with shapes ", shape_str(a[0].tensor_list()[i].sizes()), " and ",
               shape_str(a[0].tensor_list()[i + 1].sizes()), " cannot be multiplied");
  }
  Tensor out = chain_product(ms, chain_order(ms), 0, n - 1);
  if (row && col) return {reshape(out, {})};
  if (row) return {squeeze(out, Shape{0})};
  if (col) return {squeeze(out, Shape{1})};
  return {out};
}

// ---- diagonal, solve_triangular -------------------------------------------------------
// linalg_diagonal(Tensor A, *, int offset=0, int dim1=-2, int dim2=-1): torch.diagonal's view.
std::vector<Tensor> linalg_diagonal_composite(const Args& a) {
  return {invoke("diagonal", {a[0], a[1], a[2], a[3]})};
}

// linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False):
// A's other triangle is never read (and gets no gradient); a unit diagonal replaces A's.
std::vector<Tensor> solve_triangular_composite(const Args& a) {
  const Tensor &A = a[0].tensor(), &B = a[1].tensor();
  const bool upper = a[2].to_bool(), unit = a[4].to_bool();
  KILN_CHECK(A.dim() >= 2, Runtime, "linalg.solve_triangular: The input tensor A must have at least 2 dimensions.");
  KILN_CHECK(B.dim() >= 2, Runtime, "linalg.solve_triangular: The input tensor B must have at least 2 dimensions.");
  check_square(A, "linalg.solve_triangular");
  Tensor T = upper ? triu(A, unit ? 1 : 0) : tril(A, unit ? -1 : 0);
  if (unit) T = add(T, eye(A.size(-1), std::nullopt, A.dtype()));
  return {invoke("linalg_solve", {T, B, a[3]})};
}

// ---- cond -----------------------------------------------------------------------------
// linalg_cond(Tensor self, Scalar? p=None): the 2-norm ones from singular values
// (any shape); the others as norm(A) * norm(inv(A)), square matrices only.
Tensor cond_by_norms(const Tensor& A, const Value& p, const std::string& shown) {
  KILN_CHECK(A.dim() >= 2 && A.size(-1) == A.size(-2), Runtime, "linalg.cond(ord=", shown,
             "): A must be batches of square matrices, but they are ", A.size(-2), " by ", A.size(-1), " matrices");
  const char* op = p.is_string() ? "linalg_matrix_norm.str_ord" : "linalg_matrix_norm";
  return mul(invoke(op, {A, p}), invoke(op, {invoke("linalg_inv", {A}), p}));
}
std::vector<Tensor> cond_composite(const Args& a) {
  const Tensor& A = a[0].tensor();
  if (a[1].is_none() || std::abs(a[1].to_double()) == 2) {
    lapack::check_matrix(A, "linalg.cond");
    Tensor s = invoke("linalg_svdvals", {A});
    Tensor first = narrow(s, -1, 0, 1), last = narrow(s, -1, s.size(-1) - 1, 1);
    Tensor r = !a[1].is_none() && a[1].to_double() < 0 ? div(last, first) : div(first, last);
    return {squeeze(r, Shape{-1})};
  }
  double p = a[1].to_double();
  std::string shown = std::isinf(p) ? (p > 0 ? "inf" : "-inf") : detail::cat(int64_t(p));
  return {cond_by_norms(A, a[1], shown)};
}
std::vector<Tensor> cond_str_composite(const Args& a) {
  const std::string& p = a[1].str();
  KILN_CHECK(p == "fro" || p == "nuc", Runtime, "linalg.cond got an invalid norm type: ", p);
  return {cond_by_norms(a[0].tensor(), a[1], p)};
}

// ---- matrix_exp -----------------------------------------------------------------------
using Mat = std::vector<double>;  // n x n, row-major
Mat matmul_sq(const Mat& x, const Mat& y, int64_t n) {
  Mat out(size_t(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k) {
      const double xik = x[size_t(i * n + k)];
      for (int64_t j = 0; j < n; ++j) out[size_t(i * n + j)] += xik * y[size_t(k * n + j)];
    }
  return out;
}
// exp(A): A / 2^s has 1-norm at most 1/2, where the Taylor series' remainder
// after degree 18 is below 1e-22; the result is then squared s times.
Mat expm(Mat a, int64_t n) {
  double norm1 = 0;
  for (int64_t j = 0; j < n; ++j) {
    double col = 0;
    for (int64_t i = 0; i < n; ++i) col += std::abs(a[size_t(i * n + j)]);
    norm1 = std::max(norm1, col);
  }
  int s = norm1 > 0.5 && std::isfinite(norm1) ? int(std::ceil(std::log2(norm1 / 0.5))) : 0;
  for (double& v : a) v = std::ldexp(v, -s);
  Mat e(size_t(n * n), 0.0);  // Horner: I + A/1 (I + A/2 (... (I + A/18)))
  for (int64_t i = 0; i < n; ++i) e[size_t(i * n + i)] = 1;
  for (int k = 18; k >= 1; --k) {
    e = matmul_sq(a, e, n);
    for (double& v : e) v /= k;
    for (int64_t i = 0; i < n; ++i) e[size_t(i * n + i)] += 1;
  }
  for (int i = 0; i < s; ++i) e = matmul_sq(e, e, n);
  return e;
}
std::vector<Shape> shape_matrix_exp(const Args& a) {
  check_square(a[0].tensor(), "linalg.matrix_exp");
  return {a[0].tensor().sizes()};
}
void matrix_exp_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor A = lapack::dense_copy(a[0].tensor());
  const int64_t n = A.dim() == 0 ? 1 : A.size(-1), nn = n * n;
  lapack::visit_lapack(A.dtype(), "linalg.matrix_exp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = A.data<T>();
    T* out = outs[0].data<T>();
    for (int64_t b = 0; b < batch_of(A); ++b) {
      Mat e = expm(Mat(in + b * nn, in + (b + 1) * nn), n);
      for (int64_t i = 0; i < nn; ++i) out[b * nn + i] = T(e[size_t(i)]);
    }
  });
}
// The Fréchet derivative through a block matrix: exp([[A^T, G], [0, A^T]])
// holds the gradient in its upper-right block (PyTorch's formula too).
std::vector<Tensor> grad_matrix_exp(const GradCtx& c) {
  const Tensor At = mT(c.in(0));
  const int64_t n = At.size(-1);
  Tensor top = cat({At, c.grad()}, -1), bottom = cat({zeros_like(At), At}, -1);
  Tensor big = invoke("linalg_matrix_exp", {cat({top, bottom}, -2)});
  return {narrow(narrow(big, -2, 0, n), -1, n, n)};
}

}  // namespace
}  // namespace ops

void register_linalg_extras_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", .kind = C,
         .composite = vecdot_composite});
  t.add({.schema_text = "linalg_multi_dot(Tensor[] tensors) -> Tensor", .kind = C, .composite = multi_dot_composite});
  t.add({.schema_text = "linalg_diagonal(Tensor A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", .kind = C,
         .composite = linalg_diagonal_composite});
  t.add({.schema_text = "linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, "
                        "bool unitriangular=False) -> Tensor",
         .kind = C, .composite = solve_triangular_composite});
  t.add({.schema_text = "linalg_cond(Tensor self, Scalar? p=None) -> Tensor", .kind = C, .composite = cond_composite});
  t.add({.schema_text = "linalg_cond.p_str(Tensor self, str p) -> Tensor", .kind = C,
         .composite = cond_str_composite});
  t.add({.schema_text = "linalg_matrix_exp(Tensor self) -> Tensor", .kind = OpKind::Extern,
         .shape = shape_matrix_exp, .dtype = dtype_like_self, .kernel = matrix_exp_kernel, .grad = grad_matrix_exp,
         .saves = save_in(0)});
  t.add({.schema_text = "matrix_exp(Tensor self) -> Tensor", .kind = C,
         .composite = [](const Args& a) { return std::vector<Tensor>{invoke("linalg_matrix_exp", {a[0]})}; }});
}

}  // namespace kiln
