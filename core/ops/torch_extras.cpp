// torch functions composed of the core ops, so autograd and the tracer come
// with them: addmv, addr and addbmm (with their in-place forms), diag_embed
// and diagflat, masked_scatter, nanmedian and renorm. Each result's node
// takes PyTorch's name (AddmvBackward0, ...), as grad_fn prints it.
#include <cmath>
#include <limits>
#include <string>

#include "core/autograd.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

// ---- addmv, addr, addbmm -----------------------------------------------------------------
// beta * self + alpha * product; beta == 0 ignores self (its NaNs do not
// propagate), as PyTorch does. Results keep the inputs' promoted dtype.
Tensor times(const Tensor& t, const Value& s) { return s.to_double() == 1 ? t : invoke("mul", {t, s}); }
Tensor beta_self_plus(const Tensor& self, const Tensor& product, const Value& beta, const Value& alpha, DType d) {
  Tensor p = times(product, alpha);
  Tensor r = beta.to_double() == 0 ? p : add(times(self, beta), p);
  return r.dtype() == d ? r : to_dtype(r, d);
}

// addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1)
std::vector<Tensor> addmv_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &mat = a[1].tensor(), &vec = a[2].tensor();
  KILN_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, Runtime, "vector + matrix @ vector expected, got ",
             self.dim(), ", ", mat.dim(), ", ", vec.dim());
  if (mat.size(1) != vec.size(0) || (self.numel() != mat.size(0) && self.numel() != 1))
    KILN_CHECK(false, Runtime, "size mismatch, got input (", self.size(0), "), mat (", mat.size(0), "x", mat.size(1),
               "), vec (", vec.size(0), ")");
  KILN_CHECK(self.dtype() == mat.dtype() && mat.dtype() == vec.dtype(), Runtime,
             "addmv input tensors must have the same dtype, but got ", dtype_legacy_name(self.dtype()), ", ",
             dtype_legacy_name(mat.dtype()), ", and ", dtype_legacy_name(vec.dtype()));
  return {as_node(beta_self_plus(self, mv(mat, vec), a[3], a[4], self.dtype()), "AddmvBackward0")};
}

// addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1): dtypes promote.
void check_addr_scalar(DType d, const Value& s, const char* name) {
  KILN_CHECK(!s.is_bool() || d == DType::Bool, Runtime, "Boolean ", name, " only supported for Boolean results.");
  KILN_CHECK(is_floating(d) || !s.is_double(), Runtime, "For integral input tensors, argument ", name,
             " must not be a floating point number.");
}
std::vector<Tensor> addr_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &v1 = a[1].tensor(), &v2 = a[2].tensor();
  KILN_CHECK(v1.dim() == 1, Runtime, "addr: Expected 1-D argument vec1, but got ", v1.dim(), "-D");
  KILN_CHECK(v2.dim() == 1, Runtime, "addr: Expected 1-D argument vec2, but got ", v2.dim(), "-D");
  const DType d = result_type({self, v1, v2});
  check_addr_scalar(d, a[3], "beta");
  check_addr_scalar(d, a[4], "alpha");
  Tensor s = expand(self, {v1.size(0), v2.size(0)});
  return {as_node(beta_self_plus(s, mul(unsqueeze(v1, 1), unsqueeze(v2, 0)), a[3], a[4], d), "AddrBackward0")};
}

// addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1): the
// batch of products summed. PyTorch expands self before it checks the batches.
std::vector<Tensor> addbmm_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &b1 = a[1].tensor(), &b2 = a[2].tensor();
  Tensor s = expand(self, {b1.size(1), b2.size(2)});
  KILN_CHECK(b1.dim() == 3, Runtime, "batch1 must be a 3D tensor");
  KILN_CHECK(b2.dim() == 3, Runtime, "batch2 must be a 3D tensor");
  KILN_CHECK(b1.size(0) == b2.size(0), Runtime, "batch1 and batch2 must have same number of batches, got ",
             b1.size(0), " and ", b2.size(0));
  KILN_CHECK(b1.size(2) == b2.size(1), Runtime, "Incompatible matrix sizes for bmm (", b1.size(1), "x", b1.size(2),
             " and ", b2.size(1), "x", b2.size(2), ")");
  const Tensor& other = b1.dtype() != b2.dtype() ? b1 : self;
  const Tensor& mat2 = b1.dtype() != b2.dtype() ? b2 : b1;
  KILN_CHECK(other.dtype() == mat2.dtype(), Runtime, "self and mat2 must have the same dtype, but got ",
             dtype_legacy_name(other.dtype()), " and ", dtype_legacy_name(mat2.dtype()));
  return {as_node(beta_self_plus(s, sum(bmm(b1, b2), Shape{0}), a[3], a[4], self.dtype()), "AddbmmBackward0")};
}

// The in-place forms: F's result written into self (copy_ brings the leaf
// and view checks), self's node renamed as PyTorch names it. F reads a copy
// of a self with history: its backward may need self as it was.
template <CompositeFn F, const char* Node>
std::vector<Tensor> write_back_as(const Args& a) {
  Tensor self = a[0].tensor();
  std::vector<Value> args(a.begin(), a.end());
  if (self.requires_grad() && GradMode::enabled()) args[0] = Value(clone(self));
  Tensor r = F(args).at(0);
  KILN_CHECK(r.sizes() == self.sizes(), Runtime, "Bad in-place call: input tensor size ", self.shape_str(),
             " and output tensor size ", shape_str(r.sizes()), " should match");
  KILN_CHECK(can_cast(r.dtype(), self.dtype()), Runtime, "result type ", dtype_legacy_name(r.dtype()),
             " can't be cast to the desired output type ", dtype_legacy_name(self.dtype()));
  copy_(self, r);
  if (!self.impl()->view_base.defined()) as_node(self, Node);
  return {self};
}
constexpr char kAddmvNode[] = "AddmvBackward0";
constexpr char kAddrNode[] = "AddrBackward0";
constexpr char kAddbmmNode[] = "AddbmmBackward0";
std::vector<Tensor> addr_inplace(const Args& a) {
  const Tensor &self = a[0].tensor(), &v1 = a[1].tensor(), &v2 = a[2].tensor();
  KILN_CHECK(v1.dim() != 1 || v2.dim() != 1 || self.sizes() == Shape({v1.size(0), v2.size(0)}), Runtime,
             "size mismatch, input: ", self.shape_str(), ", v1: ", v1.shape_str(), ", v2: ", v2.shape_str());
  return write_back_as<addr_composite, kAddrNode>(a);
}

// ---- diag_embed, diagflat ------------------------------------------------------------------
// diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1): self's last dim on the
// offset diagonal of two new dims, written into zeros through the diagonal view.
std::vector<Tensor> diag_embed_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const int64_t offset = a[1].to_int(), nd = x.dim() + 1;
  const int64_t d1 = wrap_dim(a[2].to_int(), nd), d2 = wrap_dim(a[3].to_int(), nd);
  KILN_CHECK(d1 != d2, Runtime, "diagonal dimensions cannot be identical ", a[2].to_int(), ", ", a[3].to_int());
  const int64_t n = x.size(-1) + std::abs(offset);
  Shape shape(x.sizes().begin(), x.sizes().end() - 1);
  shape.insert(shape.begin() + std::min(d1, d2), n);
  shape.insert(shape.begin() + std::max(d1, d2), n);
  Tensor out = zeros(shape, x.dtype());
  Tensor diag = invoke("diagonal", {out, offset, d1, d2});
  copy_(diag, x);
  return {as_node(out, "DiagEmbedBackward0")};
}
// diagflat(Tensor self, int offset=0): the flattened input on a matrix's diagonal.
std::vector<Tensor> diagflat_composite(const Args& a) {
  return {invoke("diag_embed", {reshape(a[0].tensor(), {-1}), a[1], 0, 1})};
}

// count - 1, at least 0 (int64).
Tensor first_rank(const Tensor& count) {
  return maximum(sub(count, ones({}, DType::Int64)), zeros({}, DType::Int64));
}

// ---- masked_scatter -------------------------------------------------------------------------
// masked_scatter(Tensor self, Tensor mask, Tensor source): the k-th true
// position of the (broadcast) mask takes source's k-th element, gathered by
// the running count of trues, so the gradient flows back to those elements.
std::vector<Tensor> masked_scatter_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &mask = a[1].tensor(), &src = a[2].tensor();
  KILN_CHECK(mask.dtype() == DType::Bool, Runtime, "masked_scatter_ only supports boolean masks, but got mask with dtype ",
             dtype_legacy_name(mask.dtype()));
  KILN_CHECK(self.dtype() == src.dtype(), Runtime, "masked_scatter: expected self and source to have same dtypes but got",
             dtype_legacy_name(self.dtype()), " and ", dtype_legacy_name(src.dtype()));
  const Shape shape = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor m = reshape(expand(mask, shape), {-1});
  Tensor rank = invoke("cumsum", {m, 0});
  const int64_t count = m.numel() == 0 ? 0 : narrow(rank, 0, m.numel() - 1, 1).item_int();
  KILN_CHECK(count <= src.numel(), Runtime, "Number of elements of source < number of ones in mask");
  if (count == 0) return {as_node(clone(expand(self, shape)), "MaskedScatterBackward0")};
  Tensor at = first_rank(rank);
  Tensor picked = reshape(gather(reshape(src, {-1}), 0, at), shape);
  return {as_node(where(reshape(m, shape), picked, self), "MaskedScatterBackward0")};
}
constexpr char kMaskedScatterNode[] = "MaskedScatterBackward0";
// masked_scatter_: self keeps its shape; the mask broadcasts to it.
std::vector<Tensor> masked_scatter_inplace(const Args& a) {
  const Tensor &self = a[0].tensor(), &mask = a[1].tensor();
  expand(mask, self.sizes());
  return write_back_as<masked_scatter_composite, kMaskedScatterNode>(a);
}

// ---- nanmedian -------------------------------------------------------------------------------
// The lower median of the non-NaN values: sorting puts NaNs last, so it sits
// at (count - 1) / 2 (at 0, a NaN, when all are NaN).
struct Picked {
  Tensor values, indices;
};
Picked nan_median_along(const Tensor& x, int64_t dim) {
  std::vector<Tensor> sorted = invoke_multi("sort", {x, dim});
  Tensor count = sum(logical_not(isnan(x)), Shape{dim}, true, DType::Int64);
  Tensor at = floor_divide(first_rank(count), full({}, 2, DType::Int64));
  return {gather(sorted[0], dim, at), gather(sorted[1], dim, at)};
}
// nanmedian(Tensor self): as PyTorch, the gradient is shared by every element
// equal to the median (amax over them spreads it evenly, at the same value).
std::vector<Tensor> nanmedian_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  if (x.numel() == 0) return {full({}, std::numeric_limits<double>::quiet_NaN(), x.dtype())};
  Tensor flat = reshape(x, {-1});
  Tensor v;
  {
    NoGradGuard no_grad;
    v = nan_median_along(flat, 0).values;
  }
  if (!is_floating(x.dtype())) return {reshape(v, {})};
  Tensor tie = where(isnan(v), isnan(flat), eq(flat, v));
  Tensor lowest = full({}, -std::numeric_limits<double>::infinity(), x.dtype());
  return {as_node(amax(where(tie, flat, lowest)), "NanmedianBackward0")};
}
// nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (values, indices)
std::vector<Tensor> nanmedian_dim_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const int64_t dim = wrap_dim(a[1].to_int(), std::max<int64_t>(x.dim(), 1));
  KILN_CHECK(x.dim() == 0 || x.size(dim) != 0, Index, "median(): Expected reduction dim ", dim,
             " to have non-zero size.");
  Picked p = nan_median_along(x.dim() == 0 ? reshape(x, {1}) : x, dim);
  if (x.dim() == 0 || !a[2].to_bool()) {
    Shape s = x.sizes();
    if (x.dim() != 0) s.erase(s.begin() + dim);
    p.values = reshape(p.values, s), p.indices = reshape(p.indices, s);
  }
  return {as_node(p.values, "NanmedianBackward1"), p.indices};
}

// ---- renorm ----------------------------------------------------------------------------------
// renorm(Tensor self, Scalar p, int dim, Scalar maxnorm): each slice along dim
// whose p-norm exceeds maxnorm is scaled to norm maxnorm (PyTorch's 1e-7 in
// the divisor included); the gradient goes through the norm too, as PyTorch's.
std::vector<Tensor> renorm_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const double p = a[1].to_double(), maxnorm = a[3].to_double();
  KILN_CHECK(p > 0, Runtime, "renorm: non-positive-norm not supported");
  KILN_CHECK(maxnorm >= 0, Runtime, "renorm: expected maxnorm to be >= 0 but got ", maxnorm);
  KILN_CHECK(x.dim() > 1, Runtime, "renorm: input needs at least 2 dimensions, got ", x.dim(), " dimensions");
  KILN_CHECK(is_floating(x.dtype()), NotImplemented,
             "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(x.dtype()));
  const int64_t dim = wrap_dim(a[2].to_int(), x.dim());
  Shape others;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != dim) others.push_back(d);
  Tensor norm = invoke("linalg_vector_norm", {x, a[1], others, true});
  Tensor factor = div(full({}, maxnorm, x.dtype()), add(norm, 1e-7));
  Tensor scaled = mul(x, where(gt(norm, full({}, maxnorm, x.dtype())), factor, ones({}, x.dtype())));
  return {as_node(scaled, "RenormBackward0")};
}
constexpr char kRenormNode[] = "RenormBackward0";

}  // namespace
}  // namespace ops

void register_torch_extras_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = addmv_composite});
  t.add({.schema_text = "addmv_(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = write_back_as<addmv_composite, kAddmvNode>});
  t.add({.schema_text = "addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = addr_composite});
  t.add({.schema_text = "addr_(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = addr_inplace});
  t.add({.schema_text = "addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = addbmm_composite});
  t.add({.schema_text = "addbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = write_back_as<addbmm_composite, kAddbmmNode>});
  t.add({.schema_text = "diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", .kind = C,
         .composite = diag_embed_composite});
  t.add({.schema_text = "diagflat(Tensor self, int offset=0) -> Tensor", .kind = C, .composite = diagflat_composite});
  t.add({.schema_text = "masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", .kind = C,
         .composite = masked_scatter_composite});
  t.add({.schema_text = "masked_scatter_(Tensor self, Tensor mask, Tensor source) -> Tensor", .kind = C,
         .composite = masked_scatter_inplace});
  t.add({.schema_text = "nanmedian(Tensor self) -> Tensor", .kind = C, .composite = nanmedian_composite});
  t.add({.schema_text = "nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         .kind = C, .composite = nanmedian_dim_composite});
  t.add({.schema_text = "renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", .kind = C,
         .composite = renorm_composite});
  t.add({.schema_text = "renorm_(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", .kind = C,
         .composite = write_back_as<renorm_composite, kRenormNode>});
}

}  // namespace kiln
