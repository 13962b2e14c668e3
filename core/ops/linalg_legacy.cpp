// PyTorch's pre-torch.linalg functions, over the torch.linalg ops: svd (U, S
// and V rather than Vh), pinverse, cholesky_solve, cholesky_inverse and
// triangular_solve (with its cloned coefficient), and qr, which PyTorch 2.x
// keeps only to raise its removal message.
#include <string>

#include "core/autograd.h"
#include "core/ops/lapack_util.h"

namespace kiln {
namespace ops {
namespace {

using lapack::mT;

// svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V):
// without compute_uv, U and V are zero-filled m x m and n x n matrices.
std::vector<Tensor> svd_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dim() >= 2, Runtime, "linalg.svd: input should have at least 2 dimensions, but has ", x.dim(),
             " dimensions instead");
  if (!a[2].to_bool()) {
    Tensor s = invoke("linalg_svdvals", {x});
    Shape u = x.sizes(), v = x.sizes();
    u.back() = x.size(-2), v[v.size() - 2] = x.size(-1);
    return {zeros(u, x.dtype()), s, zeros(v, x.dtype())};
  }
  std::vector<Tensor> usv = invoke_multi("linalg_svd", {x, !a[1].to_bool()});
  return {usv[0], usv[1], mT(usv[2])};
}

// qr(Tensor self, bool some=True): removed in PyTorch 1.9; 2.x raises this.
std::vector<Tensor> qr_composite(const Args& a) {
  const bool some = a[1].to_bool();
  throw Error(detail::cat(
      "This function was deprecated since version 1.9 and is now removed. `torch.qr` is deprecated in favor of "
      "`torch.linalg.qr` and the boolean parameter `some` has been replaced with a string parameter `mode`.\n\n"
      "Q, R = torch.qr(A) should be replaced with:\nQ, R = torch.linalg.qr(A, mode='reduced')\n\nand\n\n"
      "Q, R = torch.qr(A, some=False) should be replaced with:\nQ, R = torch.linalg.qr(A, mode='complete')\n\n"
      "Since `some` was set to ", some ? "True" : "False", ", use mode='", some ? "reduced" : "complete", "'."));
}

// pinverse(Tensor self, float rcond=1e-15): linalg.pinv with rcond as its relative tolerance.
std::vector<Tensor> pinverse_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dim() >= 2 && (x.dtype() == DType::Float32 || x.dtype() == DType::Float64), Runtime, "linalg.pinv(",
             dtype_legacy_name(x.dtype()), "{", shape_str(x.sizes()), "}): expected a tensor with 2 or more dimensions ",
             "of float, double, cfloat or cdouble types");
  return {invoke("linalg_pinv", {a[0], 0.0, a[1]})};
}

// ---- cholesky_solve, cholesky_inverse -----------------------------------------------------------
// Values come from the triangle LAPACK reads, but PyTorch's derivatives use the
// factor F as given (the other triangle too): for A = F F^H, dA^-1 = -A^-1 dA A^-1
// with dA = dF F^H + F dF^H. Each result is its value plus terms linear in
// d = t - t.detach() (zero, carrying t's history) whose gradients are those.
Tensor triangle_of(const Tensor& f, bool upper) { return upper ? triu(f) : tril(f); }
Tensor lower_factor(const Tensor& f, bool upper) { return upper ? mT(f) : f; }
Tensor change_of(const Tensor& t) { return sub(t, t.detach()); }
// dA as the factor's change: dF F^H + F dF^H, F the lower factor as given.
Tensor change_of_product(const Tensor& f, bool upper) {
  Tensor F = lower_factor(f, upper), dF = change_of(F), Fc = F.detach();
  return add(matmul(dF, mT(Fc)), matmul(Fc, mT(dF)));
}
void check_float_kernel(DType d, const char* kernel) {
  KILN_CHECK(d == DType::Float32 || d == DType::Float64, NotImplemented, "\"", kernel, "\" not implemented for '",
             dtype_legacy_name(d), "'");
}
// A X = B with A = L L^H (upper: U^H U), as two solves with the factor.
Tensor solve_factored(const Tensor& f, const Tensor& b, bool upper) {
  Tensor lower = upper ? mT(f) : f;
  return invoke("linalg_solve", {mT(lower), invoke("linalg_solve", {lower, b})});
}
// Both b and the factor at least 2-D, square factors, matching sizes and dtypes.
void check_solve_args(const Tensor& b, const Tensor& f, const char* op, const char* prefix) {
  KILN_CHECK(f.size(-1) == f.size(-2), Runtime, "A must be batches of square matrices, but they are ", f.size(-2),
             " by ", f.size(-1), " matrices");
  KILN_CHECK(f.size(-1) == b.size(-2), Runtime, prefix, "Incompatible matrix sizes for ", op, ": each A matrix is ",
             f.size(-1), " by ", f.size(-1), " but each b matrix is ", b.size(-2), " by ", b.size(-1));
  KILN_CHECK(b.dtype() == f.dtype(), Runtime, "Expected b and A to have the same dtype, but found b of type ",
             dtype_legacy_name(b.dtype()), " and A of type ", dtype_legacy_name(f.dtype()), " instead.");
}

// cholesky_solve(Tensor self, Tensor input2, bool upper=False)
std::vector<Tensor> cholesky_solve_composite(const Args& a) {
  const Tensor &b = a[0].tensor(), &f = a[1].tensor();
  const bool upper = a[2].to_bool();
  KILN_CHECK(b.dim() >= 2, Runtime, "b should have at least 2 dimensions, but has ", b.dim(), " dimensions instead");
  KILN_CHECK(f.dim() >= 2, Runtime, "u should have at least 2 dimensions, but has ", f.dim(), " dimensions instead");
  check_solve_args(b, f, "cholesky_solve", "");
  check_float_kernel(b.dtype(), "cholesky_solve_cpu");
  Tensor x, inv;
  {
    NoGradGuard no_grad;
    Tensor t = triangle_of(f, upper);
    x = solve_factored(t, b, upper);
    inv = solve_factored(t, eye(f.size(-1), std::nullopt, f.dtype()), upper);
  }
  // X + A^-1 dB - A^-1 dA X
  Tensor r = sub(add(x, matmul(inv, change_of(b))), matmul(inv, matmul(change_of_product(f, upper), x)));
  return {as_node(r, "CholeskySolveBackward0")};
}

// cholesky_inverse(Tensor self, bool upper=False): (L L^H)^-1 = L^-H L^-1 (upper: U^-1 U^-H).
std::vector<Tensor> cholesky_inverse_composite(const Args& a) {
  const Tensor& f = a[0].tensor();
  const bool upper = a[1].to_bool();
  KILN_CHECK(f.dim() >= 2, Runtime, "cholesky_inverse: The input tensor A must have at least 2 dimensions.");
  KILN_CHECK(f.size(-1) == f.size(-2), Runtime,
             "cholesky_inverse: A must be batches of square matrices, but they are ", f.size(-2), " by ", f.size(-1),
             " matrices");
  check_float_kernel(f.dtype(), "cholesky_inverse_out_cpu");
  Tensor inv;
  {
    NoGradGuard no_grad;
    Tensor t_inv = invoke("linalg_inv", {triangle_of(f, upper)});
    inv = upper ? matmul(t_inv, mT(t_inv)) : matmul(mT(t_inv), t_inv);
  }
  // A^-1 - A^-1 dA A^-1
  Tensor r = sub(inv, matmul(inv, matmul(change_of_product(f, upper), inv)));
  return {as_node(r, "CholeskyInverseBackward0")};
}

// triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False)
//   -> (Tensor solution, Tensor cloned_coefficient)
std::vector<Tensor> triangular_solve_composite(const Args& a) {
  const Tensor &b = a[0].tensor(), &A = a[1].tensor();
  const bool upper = a[2].to_bool(), transpose = a[3].to_bool();
  const char* op = "torch.triangular_solve";
  KILN_CHECK(b.dim() >= 2, Runtime, op, ": Expected b to have at least 2 dimensions, but it has ", b.dim(),
             " dimensions instead");
  KILN_CHECK(A.dim() >= 2, Runtime, op, ": Expected A to have at least 2 dimensions, but it has ", A.dim(),
             " dimensions instead");
  check_solve_args(b, A, "triangular_solve", "");
  Tensor x = invoke("linalg_solve_triangular", {transpose ? mT(A) : A, b, upper != transpose, true, a[4]});
  const char* node = "TriangularSolveBackward0";
  return {as_node(x, node), as_node(clone(A), node)};
}

}  // namespace
}  // namespace ops

void register_linalg_legacy_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)",
         .kind = C, .composite = svd_composite});
  t.add({.schema_text = "qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)", .kind = C,
         .composite = qr_composite});
  t.add({.schema_text = "pinverse(Tensor self, float rcond=1e-15) -> Tensor", .kind = C,
         .composite = pinverse_composite});
  t.add({.schema_text = "cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor", .kind = C,
         .composite = cholesky_solve_composite});
  t.add({.schema_text = "cholesky_inverse(Tensor self, bool upper=False) -> Tensor", .kind = C,
         .composite = cholesky_inverse_composite});
  t.add({.schema_text = "triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, "
                        "bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)",
         .kind = C, .composite = triangular_solve_composite});
}

}  // namespace kiln
