// torch functions composed of the core ops, so autograd and the tracer come
// with them: addmv, addr and addbmm (with their in-place forms), diag_embed
// and diagflat, masked_scatter, nanmedian, renorm, pdist, cov and corrcoef,
// combinations, chain_matmul, ldexp, vander, the *_scatter functions,
// narrow_copy, empty_strided, is_nonzero, isreal, unique_consecutive and
// histogram. Each result's node takes PyTorch's name (AddmvBackward0, ...), as
// grad_fn prints it.
#include <cmath>
#include <limits>
#include <string>

#include "core/autograd.h"
#include "core/device.h"
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
  if (mat.size(1) != vec.size(0) || (self.numel() != mat.size(0) && self.numel() != 1)) {
    // PyTorch's message reads self.size(0), which a 0-dim self fails first.
    KILN_CHECK(self.dim() == 1, Index, "Dimension specified as 0 but tensor has no dimensions");
    KILN_CHECK(false, Runtime, "size mismatch, got input (", self.size(0), "), mat (", mat.size(0), "x", mat.size(1),
               "), vec (", vec.size(0), ")");
  }
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
  // Before F's own checks, as PyTorch's in-place ops check first.
  KILN_CHECK(!(GradMode::enabled() && self.is_leaf() && self.requires_grad()), Runtime,
             "a leaf Variable that requires grad is being used in an in-place operation.");
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
  std::vector<Tensor> sorted = invoke_multi("sort.stable", {x, true, dim});  // ties in index order
  Tensor count = sum(logical_not(isnan(x)), Shape{dim}, true, DType::Int64);
  Tensor at = floor_divide(first_rank(count), full({}, 2, DType::Int64));
  return {gather(sorted[0], dim, at), gather(sorted[1], dim, at)};
}
// nanmedian(Tensor self): as PyTorch, the gradient is shared by every element
// equal to the median (amax over them spreads it evenly, at the same value),
// or by every NaN when all are NaN (a weighted sum of them: NaN, with weights 1/n).
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
  const Tensor zero = zeros({}, x.dtype());
  if (isnan(v).item_bool()) {
    Tensor nans = isnan(flat);
    Tensor share = div(to_dtype(nans, x.dtype()), full({}, double(flat.numel()), x.dtype()));
    return {as_node(sum(mul(where(nans, flat, zero), share)), "NanmedianBackward0")};
  }
  Tensor lowest = full({}, -std::numeric_limits<double>::infinity(), x.dtype());
  return {as_node(amax(where(eq(flat, v), flat, lowest)), "NanmedianBackward0")};
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

// ---- pdist, cov, corrcoef ---------------------------------------------------------------------
// Host-built int64 indices (shapes are known before any data is), beside `like`.
Tensor index_tensor(const std::vector<double>& idx, const Tensor& like) {
  Tensor t = tensor_from(idx, {int64_t(idx.size())}, DType::Int64);
  if (t.device() == like.device()) return t;
  return invoke("_to_device", {t, device_code(like.device()), device_code(t.device())});
}

// pdist(Tensor self, float p=2): the p-norm distance of every row pair i < j, in row-major order.
std::vector<Tensor> pdist_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dim() == 2, Runtime, "pdist only supports 2D tensors, got: ", x.dim(), "D");
  KILN_CHECK(is_floating(x.dtype()), Runtime, "pdist only supports floating-point dtypes");
  KILN_CHECK(a[1].to_double() >= 0, Runtime, "pdist only supports non-negative p values");
  std::vector<double> rows, cols;
  for (int64_t i = 0; i < x.size(0); ++i)
    for (int64_t j = i + 1; j < x.size(0); ++j) rows.push_back(double(i)), cols.push_back(double(j));
  if (rows.empty()) return {zeros({0}, x.dtype())};
  Tensor d = sub(index_select(x, 0, index_tensor(rows, x)), index_select(x, 0, index_tensor(cols, x)));
  Tensor r = invoke("linalg_vector_norm", {d, a[1], Shape{1}});
  // The 0-"norm" counts, with no history; PyTorch's is differentiable, with a zero
  // gradient: adding 0 * d (d's finite part, so no NaN) gives the same.
  if (a[1].to_double() == 0) r = add(r, sum(mul(where(isfinite(d), d, zeros({}, d.dtype())), 0.0), Shape{1}));
  return {as_node(r, "PdistBackward0")};
}

// cov's fweights and aweights: 1-D, one per observation, of the right kind, none negative.
Tensor checked_weights(const Value& v, int64_t n, const char* name, bool integral) {
  if (v.is_none()) return {};
  const Tensor& w = v.tensor();
  KILN_CHECK(w.dim() <= 1, Runtime, "cov(): expected ", name, " to have one or fewer dimensions but got ", name,
             " with ", w.dim(), " dimensions");
  KILN_CHECK(integral ? !is_floating(w.dtype()) && w.dtype() != DType::Bool : is_floating(w.dtype()), Runtime,
             "cov(): expected ", name, " to have ", integral ? "integral" : "floating point", " dtype but got ", name,
             " with ", dtype_legacy_name(w.dtype()), " dtype");
  KILN_CHECK(w.numel() == n, Runtime, "cov(): expected ", name,
             " to have the same numel as there are observations in the input but got ", w.numel(), " != ", n);
  KILN_CHECK(n == 0 || !lt(amin(w), zeros({}, w.dtype())).item_bool(), Runtime, "cov(): ", name,
             " cannot be negative");
  return w;
}
// cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None):
// rows are variables, columns observations, as PyTorch's Correlation.cpp computes it.
std::vector<Tensor> cov_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() <= 2, Runtime, "cov(): expected input to have two or fewer dimensions but got an input with ",
             self.dim(), " dimensions");
  KILN_CHECK(self.dtype() != DType::Bool, NotImplemented, "cov(): bool dtype is not supported for input");
  Tensor in = self.dim() < 2 ? reshape(self, {1, -1}) : self;
  const int64_t n = in.size(1), correction = a[1].to_int();
  Tensor w = checked_weights(a[2], n, "fweights", true), aw = checked_weights(a[3], n, "aweights", false);
  if (aw.defined()) w = w.defined() ? mul(w, aw) : aw;
  Tensor w_sum = w.defined() ? sum(w) : full({}, double(n), DType::Int64);
  KILN_CHECK(!w.defined() || ne(w_sum, zeros({}, w_sum.dtype())).item_bool(), Runtime,
             "cov(): weights sum to zero, can't be normalized");
  Tensor avg = div(sum(w.defined() ? mul(in, w) : in, Shape{1}), w_sum);
  Tensor c_val = full({}, double(correction), DType::Int64);
  Tensor norm = w.defined() && aw.defined() && correction != 0
                    ? sub(w_sum, div(mul(c_val, sum(mul(w, aw))), w_sum))
                    : sub(w_sum, c_val);
  if (le(norm, zeros({}, norm.dtype())).item_bool()) norm = zeros_like(norm);
  Tensor centered = sub(in, unsqueeze(avg, 1));
  Tensor c = mm(centered, t(w.defined() ? mul(centered, w) : centered));
  return {squeeze(div(c, norm))};
}

// corrcoef(Tensor self): cov scaled by the standard deviations, clipped to [-1, 1].
std::vector<Tensor> corrcoef_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() <= 2, Runtime,
             "corrcoef(): expected input to have two or fewer dimensions but got an input with ", self.dim(),
             " dimensions");
  Tensor c = invoke("cov", {self});
  if (c.dim() == 0) return {div(c, c)};
  Tensor sd = sqrt(invoke("diagonal", {c}));
  c = div(div(c, reshape(sd, {-1, 1})), reshape(sd, {1, -1}));
  return {clamp(c, -1.0, 1.0)};
}

// ---- combinations, chain_matmul -----------------------------------------------------------
// The r-element combinations of 0..n-1 in lexicographic order (repeats allowed
// with replacement), flattened.
void combine(std::vector<double>& out, std::vector<int64_t>& cur, int64_t from, int64_t n, int64_t r, bool repeat) {
  if (int64_t(cur.size()) == r) {
    out.insert(out.end(), cur.begin(), cur.end());
    return;
  }
  for (int64_t i = from; i < n; ++i) {
    cur.push_back(i);
    combine(out, cur, repeat ? i : i + 1, n, r, repeat);
    cur.pop_back();
  }
}
// combinations(Tensor self, int r=2, bool with_replacement=False)
std::vector<Tensor> combinations_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const int64_t r = a[1].to_int();
  KILN_CHECK(x.dim() == 1, Runtime, "Expect a 1D vector, but got shape ", x.shape_str());
  KILN_CHECK(r >= 0, Runtime, "Expect a non-negative number, but got ", r);
  if (r == 0) return {zeros({0}, x.dtype())};
  std::vector<double> idx;
  std::vector<int64_t> cur;
  combine(idx, cur, 0, x.size(0), r, a[2].to_bool());
  Tensor picked = index_select(x, 0, index_tensor(idx, x));
  return {as_node(reshape(picked, {int64_t(idx.size()) / r, r}), "IndexBackward0")};
}

// chain_matmul(Tensor[] matrices): the deprecated multi_dot of matrices only.
std::vector<Tensor> chain_matmul_composite(const Args& a) {
  const std::vector<Tensor>& ms = a[0].tensor_list();
  KILN_CHECK(!ms.empty(), Runtime, "chain_matmul(): Expected one or more matrices");
  for (const Tensor& m : ms)
    KILN_CHECK(m.dim() == 2, Runtime, "Tensor dimension is ", m.dim(), ", expected 2 instead.");
  if (ms.size() == 1) return {clone(ms[0])};
  return {as_node(invoke("linalg_multi_dot", {a[0]}), "ViewBackward0")};
}

// ---- ldexp ---------------------------------------------------------------------------------
// ldexp(Tensor self, Tensor other): self * 2^other, in the float type of result_type(self,
// other) (PyTorch writes the product into an output of that type: float16 stays float16).
std::vector<Tensor> ldexp_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &other = a[1].tensor();
  Tensor r = mul(self, pow(2.0, other));
  const DType d = to_float_type(result_type({self, other}));
  return {as_node(r.dtype() == d ? r : to_dtype(r, d), "LdexpBackward0")};
}
constexpr char kLdexpNode[] = "LdexpBackward0";
std::vector<Tensor> ldexp_inplace(const Args& a) {
  const DType self = a[0].tensor().dtype(), r = result_type({a[0].tensor(), a[1].tensor()});
  KILN_CHECK(can_cast(to_float_type(r), self), Runtime, "ldexp can't be cast to the desired output type ",
             dtype_legacy_name(self));
  return write_back_as<ldexp_composite, kLdexpNode>(a);
}

// ---- vander -------------------------------------------------------------------------------
// Rows 1, x, x^2, ... as cumulative products (PyTorch's rounding); integers become int64.
Tensor powers(const Tensor& x, int64_t n) {
  Tensor col = unsqueeze(x, -1);
  Tensor one = ones_like(col, promote_types(x.dtype(), DType::Int64));
  if (n == 1) return one;
  Shape rest = col.sizes();
  rest.back() = n - 1;
  return cat({one, invoke("cumprod", {expand(col, rest), -1, promote_types(x.dtype(), DType::Int64)})}, -1);
}
// vander(Tensor x, int? N=None, bool increasing=False)
std::vector<Tensor> vander_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dim() == 1, Runtime, "x must be a one-dimensional tensor.");
  const int64_t n = a[1].is_none() ? x.size(0) : a[1].to_int();
  KILN_CHECK(n >= 0, Runtime, "N must be non-negative.");
  if (n == 0) return {zeros({x.size(0), 0}, promote_types(x.dtype(), DType::Int64))};
  Tensor r = powers(x, n);
  return {a[2].to_bool() ? as_node(r, "CopySlices") : as_node(invoke("flip", {r, Shape{1}}), "FlipBackward0")};
}
// linalg_vander(Tensor x, *, int? N=None): increasing powers along a new last dim.
std::vector<Tensor> linalg_vander_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  Tensor x1 = x.dim() == 0 ? reshape(x, {1}) : x;
  const int64_t n = a[1].is_none() ? x1.size(-1) : a[1].to_int();
  KILN_CHECK(n > 1, Runtime, "N must be greater than 1.");
  return {powers(x1, n)};
}

// ---- select_scatter, slice_scatter, diagonal_scatter ---------------------------------------
// self with the view View(self) replaced by src: a copy written through that view.
template <Tensor (*View)(const Tensor&, const Args&)>
Tensor scatter_into(const Args& a, const char* node) {
  const Tensor &self = a[0].tensor(), &src = a[1].tensor();
  Tensor out = clone(self);
  Tensor part = View(out, a);
  KILN_CHECK(part.sizes() == src.sizes(), Runtime, "expected src to have a size equal to the slice of self. src size = ",
             src.shape_str(), ", slice size = ", part.shape_str());
  copy_(part, src);
  return as_node(out, node);
}
Tensor select_view(const Tensor& t, const Args& a) {
  const int64_t dim = wrap_dim(a[2].to_int(), t.dim()), i = a[3].to_int();
  KILN_CHECK(i >= -t.size(dim) && i < t.size(dim), Index, "select(): index ", i, " out of range for tensor of size ",
             t.shape_str(), " at dimension ", dim);
  return invoke("select", {t, a[2], a[3]});
}
Tensor slice_view(const Tensor& t, const Args& a) { return invoke("slice", {t, a[2], a[3], a[4], a[5]}); }
Tensor diagonal_view(const Tensor& t, const Args& a) { return invoke("diagonal", {t, a[2], a[3], a[4]}); }
std::vector<Tensor> select_scatter_composite(const Args& a) {
  return {scatter_into<select_view>(a, "SelectScatterBackward0")};
}
std::vector<Tensor> slice_scatter_composite(const Args& a) {
  return {scatter_into<slice_view>(a, "SliceScatterBackward0")};
}
std::vector<Tensor> diagonal_scatter_composite(const Args& a) {
  return {scatter_into<diagonal_view>(a, "DiagonalScatterBackward0")};
}

// ---- narrow_copy, empty_strided, is_nonzero, isreal ----------------------------------------
// narrow_copy(Tensor self, int dim, SymInt start, SymInt length): narrow's elements, fresh.
std::vector<Tensor> narrow_copy_composite(const Args& a) {
  Tensor v = invoke("narrow", {a[0], a[1], a[2], a[3]});
  return {as_node(contiguous(v).storage() == v.storage() ? clone(v) : contiguous(v), "NarrowCopyBackward0")};
}
// empty_strided(int[] size, int[] stride, *, ScalarType? dtype=None, bool requires_grad=False):
// zeros (PyTorch leaves the memory as it was) over the storage the strides reach.
std::vector<Tensor> empty_strided_composite(const Args& a) {
  const Shape &size = a[0].int_list(), &stride = a[1].int_list();
  KILN_CHECK(size.size() == stride.size(), Runtime, "mismatch in length of strides and shape");
  int64_t extent = 1;
  for (size_t i = 0; i < size.size(); ++i) extent += (size[i] - 1) * stride[i];
  if (shape_numel(size) == 0) extent = 0;
  Tensor base = zeros({extent}, a[2].is_none() ? kDefaultFloat : a[2].dtype());
  Tensor out = not_a_view(as_strided(base, size, stride, 0));
  if (a[3].to_bool()) out.requires_grad_(true);
  return {out};
}
// is_nonzero(Tensor self) -> bool: the one element's truth.
std::vector<Tensor> is_nonzero_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.numel() != 0, Runtime, "Boolean value of Tensor with no values is ambiguous");
  KILN_CHECK(x.numel() == 1, Runtime, "Boolean value of Tensor with more than one value is ambiguous");
  return {reshape(ne(x, zeros({}, x.dtype())), {})};
}
// isreal(Tensor self): every element of a real tensor is real.
std::vector<Tensor> isreal_composite(const Args& a) { return {ones_like(a[0].tensor(), DType::Bool)}; }

// ---- unique_consecutive ----------------------------------------------------------------------
// unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None)
//   -> (Tensor, Tensor, Tensor): a run starts where a slice differs from the one before (NaN
// differs from NaN); the values are the runs' first slices, the inverse each slice's run.
std::vector<Tensor> unique_consecutive_composite(const Args& a) {
  const bool flat = a[3].is_none();
  const Tensor x = flat ? reshape(a[0].tensor(), {-1}) : a[0].tensor();
  const int64_t dim = flat ? 0 : wrap_dim(a[3].to_int(), x.dim()), n = x.dim() == 0 ? 1 : x.size(dim);
  Tensor starts = ones({std::min<int64_t>(n, 1)}, DType::Bool);
  if (n > 1) {
    Tensor differs = ne(narrow(x, dim, 1, n - 1), narrow(x, dim, 0, n - 1));
    if (differs.dim() > 1)
      differs = any(reshape(invoke("movedim", {differs, Shape{dim}, Shape{0}}), {n - 1, -1}), Shape{1});
    starts = cat({starts, differs});
  }
  Tensor first = reshape(nonzero(starts), {-1});
  Tensor values = as_node(index_select(x, dim, first), "UniqueConsecutiveBackward0");
  Tensor inverse = sub(invoke("cumsum", {starts, 0}), ones({}, DType::Int64));
  if (flat) inverse = reshape(inverse, a[0].tensor().sizes());
  Tensor counts = zeros({0}, DType::Int64);
  if (n > 0) counts = sub(cat({narrow(first, 0, 1, first.numel() - 1), full({1}, double(n), DType::Int64)}), first);
  return {values, inverse, counts};
}

// ---- histogram -------------------------------------------------------------------------------
// Counts (or sums the weights of) the elements in each bin [e_i, e_i+1), the last bin
// closed; elements outside the edges are left out. density divides by total * width.
std::vector<Tensor> histogram_of(const Tensor& x, const Tensor& edges, const Value& weight, bool density) {
  const int64_t nb = edges.numel() - 1;
  Tensor flat = reshape(x, {-1});
  Tensor pos = sub(invoke("searchsorted", {edges, flat, false, true}), ones({}, DType::Int64));
  pos = minimum(maximum(pos, zeros({}, DType::Int64)), full({}, double(nb - 1), DType::Int64));
  Tensor inside = logical_and(ge(flat, narrow(edges, 0, 0, 1)), le(flat, narrow(edges, 0, nb, 1)));
  Tensor w = weight.is_none() ? ones_like(flat) : reshape(weight.tensor(), {-1});
  Tensor hist = scatter_add(zeros({nb}, x.dtype()), 0, pos, where(inside, w, zeros({}, w.dtype())));
  if (density) hist = div(hist, mul(sum(hist), sub(narrow(edges, 0, 1, nb), narrow(edges, 0, 0, nb))));
  return {hist, edges};
}
void check_histogram_input(const Tensor& x) {
  KILN_CHECK(is_floating(x.dtype()), NotImplemented, "\"histogramdd\" not implemented for '",
             dtype_legacy_name(x.dtype()), "'");
}
// histogram.bins_tensor(Tensor self, Tensor bins, Tensor? weight=None, bool density=False): PyTorch's
// keyword-only arguments are positional here, torch.histogram (torch_module.cpp) binding them.
std::vector<Tensor> histogram_edges_composite(const Args& a) {
  check_histogram_input(a[0].tensor());
  return histogram_of(a[0].tensor(), a[1].tensor(), a[2], a[3].to_bool());
}
// histogram.bin_ct(Tensor self, int bins=100, float? range_min=None, float? range_max=None,
// Tensor? weight=None, bool density=False): equal bins over the range, else over the data's
// (widened by 1/2 each way when it is one value; [0, 1] when empty).
std::vector<Tensor> histogram_count_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  check_histogram_input(x);
  const int64_t bins = a[1].to_int();
  KILN_CHECK(bins > 0, Runtime, "torch.histogram(): bins must be > 0, but got ", bins, " for dimension 0");
  double lo = 0, hi = x.numel() == 0 ? 1 : 0;
  if (!a[2].is_none()) {
    lo = a[2].to_double(), hi = a[3].to_double();
  } else if (x.numel() != 0) {
    lo = amin(x).item_double(), hi = amax(x).item_double();
  }
  KILN_CHECK(lo <= hi, Runtime, "torch.histogramdd: min should not exceed max, but got min ", lo, " max ", hi,
             " for dimension 0");
  if (lo == hi) lo -= 0.5, hi += 0.5;
  return histogram_of(x, linspace(lo, hi, bins + 1, x.dtype()), a[4], a[5].to_bool());
}

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
  t.add({.schema_text = "pdist(Tensor self, float p=2) -> Tensor", .kind = C, .composite = pdist_composite});
  t.add({.schema_text = "cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor",
         .kind = C, .composite = cov_composite});
  t.add({.schema_text = "corrcoef(Tensor self) -> Tensor", .kind = C, .composite = corrcoef_composite});
  t.add({.schema_text = "combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor", .kind = C,
         .composite = combinations_composite});
  t.add({.schema_text = "ldexp.Tensor(Tensor self, Tensor other) -> Tensor", .kind = C, .composite = ldexp_composite});
  t.add({.schema_text = "ldexp_(Tensor self, Tensor other) -> Tensor", .kind = C,
         .composite = ldexp_inplace});
  t.add({.schema_text = "vander(Tensor x, int? N=None, bool increasing=False) -> Tensor", .kind = C,
         .composite = vander_composite});
  t.add({.schema_text = "linalg_vander(Tensor x, *, int? N=None) -> Tensor", .kind = C,
         .composite = linalg_vander_composite});
  t.add({.schema_text = "select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor", .kind = C,
         .composite = select_scatter_composite});
  t.add({.schema_text = "slice_scatter(Tensor self, Tensor src, int dim=0, int? start=None, int? end=None, int step=1) "
                        "-> Tensor",
         .kind = C, .composite = slice_scatter_composite});
  t.add({.schema_text = "diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor",
         .kind = C, .composite = diagonal_scatter_composite});
  t.add({.schema_text = "narrow_copy(Tensor self, int dim, int start, int length) -> Tensor", .kind = C,
         .composite = narrow_copy_composite});
  t.add({.schema_text = "empty_strided(int[] size, int[] stride, *, ScalarType? dtype=None, bool requires_grad=False) "
                        "-> Tensor",
         .kind = C, .composite = empty_strided_composite});
  t.add({.schema_text = "is_nonzero(Tensor self) -> bool", .kind = C, .composite = is_nonzero_composite});
  t.add({.schema_text = "isreal(Tensor self) -> Tensor", .kind = C, .composite = isreal_composite});
  t.add({.schema_text = "unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, "
                        "int? dim=None) -> (Tensor, Tensor, Tensor)",
         .kind = C, .composite = unique_consecutive_composite});
  t.add({.schema_text = "histogram.bins_tensor(Tensor self, Tensor bins, Tensor? weight=None, bool density=False) "
                        "-> (Tensor hist, Tensor bin_edges)",
         .kind = C, .composite = histogram_edges_composite});
  t.add({.schema_text = "histogram.bin_ct(Tensor self, int bins=100, float? range_min=None, float? range_max=None, "
                        "Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)",
         .kind = C, .composite = histogram_count_composite});
  t.add({.schema_text = "chain_matmul(Tensor[] matrices) -> Tensor", .kind = C, .composite = chain_matmul_composite});
}

}  // namespace kiln
