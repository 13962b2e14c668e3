// Matrix helpers built on views and BLAS: diagonal (a view), diag, trace,
// outer, addmm, baddbmm, einsum (lowered to permute/reshape/bmm/sum), and the
// norms (torch.norm, torch.linalg.vector_norm / matrix_norm / norm). All but
// diagonal are composites, so autograd and the tracer see the ops beneath.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/autocast.h"
#include "core/format.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

Tensor wrapped(double v) { return scalar_tensor(v, DType::Float64, true); }

// ---- diagonal ------------------------------------------------------------------------
// diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1): a view whose
// last dim walks the diagonal with stride stride(dim1) + stride(dim2).
struct DiagGeom {
  Shape sizes, strides;
  int64_t offset;
};
DiagGeom diagonal_geom(const Tensor& self, int64_t off, int64_t dim1, int64_t dim2) {
  int64_t n = self.dim();
  int64_t d1 = wrap_dim(dim1, n), d2 = wrap_dim(dim2, n);
  KILN_CHECK(d1 != d2, Runtime, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t s1 = self.sizes()[size_t(d1)], s2 = self.sizes()[size_t(d2)];
  int64_t len = off >= 0 ? std::min(s1, s2 - off) : std::min(s1 + off, s2);
  len = std::max<int64_t>(len, 0);
  DiagGeom g{{}, {}, self.offset()};
  if (len > 0) g.offset += off >= 0 ? off * self.strides()[size_t(d2)] : -off * self.strides()[size_t(d1)];
  for (int64_t d = 0; d < n; ++d) {
    if (d == d1 || d == d2) continue;
    g.sizes.push_back(self.sizes()[size_t(d)]);
    g.strides.push_back(self.strides()[size_t(d)]);
  }
  g.sizes.push_back(len);
  g.strides.push_back(self.strides()[size_t(d1)] + self.strides()[size_t(d2)]);
  return g;
}
DiagGeom diagonal_geom_args(const Args& a) {
  return diagonal_geom(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int());
}
std::vector<Shape> shape_diagonal(const Args& a) { return {diagonal_geom_args(a).sizes}; }
void diagonal_kernel(const Args& a, std::vector<Tensor>& outs) {
  DiagGeom g = diagonal_geom_args(a);
  outs.push_back(make_view(a[0].tensor(), g.sizes, g.strides, g.offset));
}
Tensor diagonal(const Tensor& x, int64_t off, int64_t d1, int64_t d2) {
  return invoke("diagonal", {x, off, d1, d2});
}
// The diagonal of a zero tensor receives the gradient.
std::vector<Tensor> grad_diagonal(const GradCtx& c) {
  Tensor z = zeros(c.in_sizes[0], c.grad().dtype());
  Tensor region = diagonal(z, c.args[1].to_int(), c.args[2].to_int(), c.args[3].to_int());
  copy_(region, c.grad());
  return {z};
}

// diag(Tensor self, int diagonal=0): a 1-D tensor onto a matrix's diagonal,
// or a matrix's diagonal as a 1-D tensor.
Tensor diag_from_vector(const Tensor& x, int64_t k) {
  int64_t n = x.size(0), pad = k >= 0 ? k : -k, m = n + pad;
  // A zero of x's own dtype: a Python 0.0 would promote an int tensor to float.
  Tensor square = where(eye(n, std::nullopt, DType::Bool), expand(unsqueeze(x, 0), {n, n}), zeros({}, x.dtype()));
  if (pad == 0) return square;
  Tensor side = zeros({n, pad}, x.dtype()), band = zeros({pad, m}, x.dtype());
  if (k > 0) return cat({cat({side, square}, 1), band}, 0);
  return cat({band, cat({square, side}, 1)}, 0);
}

std::vector<Tensor> diag_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  int64_t k = a[1].to_int();
  KILN_CHECK(x.dim() == 1 || x.dim() == 2, Runtime, "diag(): Supports 1D or 2D tensors. Got ", x.dim(), "D");
  // PyTorch's nodes: diagonal_copy's for a matrix, diag_embed's for a vector.
  if (x.dim() == 2) return {as_node(clone(diagonal(x, k, 0, 1)), "DiagonalBackward0_copy")};
  return {as_node(diag_from_vector(x, k), "DiagEmbedBackward0")};
}

// trace(Tensor self): the sum of a matrix's main diagonal.
std::vector<Tensor> trace_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dim() == 2, Runtime, "trace: expected a matrix, but got tensor with dim ", x.dim());
  return {sum(diagonal(x, 0, 0, 1))};
}

// outer(Tensor self, Tensor vec2): self[i] * vec2[j].
std::vector<Tensor> outer_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  KILN_CHECK(x.dim() == 1, Runtime, "outer: Expected 1-D argument self, but got ", x.dim(), "-D");
  KILN_CHECK(y.dim() == 1, Runtime, "outer: Expected 1-D argument vec2, but got ", y.dim(), "-D");
  return {mul(unsqueeze(x, 1), unsqueeze(y, 0))};
}

// addmm / baddbmm: beta * self + alpha * (mat1 @ mat2); with beta == 0 self
// is ignored (its NaNs do not propagate), as in PyTorch.
Tensor scale(const Tensor& t, const Value& s) {
  if (s.to_double() == 1) return t;
  return invoke("mul", {t, s});
}
Tensor add_scaled(const Tensor& self, const Tensor& product, const Value& beta, const Value& alpha) {
  Tensor p = scale(product, alpha);
  if (beta.to_double() == 0) return p;  // self only broadcasts to p's shape
  return add(scale(self, beta), p);
}
// beta * self + alpha * product(m1, m2); in bfloat16/float16, PyTorch's CPU kernels
// scale and add in float32 and round once.
template <class Product>
Tensor add_product(const Args& a, Product product) {
  const Tensor &self = a[0].tensor(), &m1 = a[1].tensor(), &m2 = a[2].tensor();
  if (!is_reduced_float(m1.dtype()) || self.dtype() != m1.dtype())
    return add_scaled(self, product(m1, m2), a[3], a[4]);
  auto f32 = [](const Tensor& t) { return to_dtype(t, DType::Float32); };
  return to_dtype(add_scaled(f32(self), product(f32(m1), f32(m2)), a[3], a[4]), m1.dtype());
}
std::vector<Tensor> addmm_composite(const Args& a) {
  const Tensor &m1 = a[1].tensor(), &m2 = a[2].tensor();
  KILN_CHECK(m1.dim() == 2, Runtime, "mat1 must be a matrix, got ", m1.dim(), "-D tensor");
  KILN_CHECK(m2.dim() == 2, Runtime, "mat2 must be a matrix, got ", m2.dim(), "-D tensor");
  const DType sd = a[0].tensor().dtype();
  KILN_CHECK(sd == m2.dtype(), Runtime, "self and mat2 must have the same dtype, but got ", dtype_legacy_name(sd),
             " and ", dtype_legacy_name(m2.dtype()));
  KILN_CHECK(m1.dtype() == m2.dtype(), Runtime, "mat1 and mat2 must have the same dtype, but got ",
             dtype_legacy_name(m1.dtype()), " and ", dtype_legacy_name(m2.dtype()));
  return {as_node(add_product(a, mm), "AddmmBackward0")};
}
std::vector<Tensor> baddbmm_composite(const Args& a) {
  const Tensor &b1 = a[1].tensor(), &b2 = a[2].tensor();
  KILN_CHECK(b1.dim() == 3, Runtime, "batch1 must be a 3D tensor");
  KILN_CHECK(b2.dim() == 3, Runtime, "batch2 must be a 3D tensor");
  return {add_product(a, bmm)};
}

template <const char* Op>
std::vector<Tensor> product_inplace_composite(const Args& a) {
  return write_into_self(a[0].tensor(), invoke(Op, {a[0], a[1], a[2], a[3], a[4]}));
}
constexpr char kAddmm[] = "addmm", kBaddbmm[] = "baddbmm";

// ---- einsum ----------------------------------------------------------------------------
// Labels: 'A'-'Z' are 0-25 and 'a'-'z' 26-51 (PyTorch's implicit output
// order); ellipsis dims are kEll + i, aligned to the right across operands.
constexpr int kEll = 100;
struct Term {
  std::vector<int> labels;
  bool ellipsis = false;
  size_t ell_at = 0;  // where the ellipsis sits among the labels
};
int label_of(char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  throw Error(detail::cat("einsum(): invalid subscript given at index ? in the equation string, subscripts must be "
                          "in [a-zA-Z]: '", ch, "'"), ErrorKind::Runtime);
}
Term parse_term(const std::string& s) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ' ') continue;
    if (s[i] == '.') {
      KILN_CHECK(!t.ellipsis && s.compare(i, 3, "...") == 0, Runtime,
                 "einsum(): found '.' for operand that is not part of any ellipsis");
      t.ellipsis = true;
      t.ell_at = t.labels.size();
      i += 2;
      continue;
    }
    t.labels.push_back(label_of(s[i]));
  }
  return t;
}
// An operand with its labels, one per dim (ellipsis dims expanded).
struct Labeled {
  Tensor t;
  std::vector<int> labels;
};

// Takes the diagonal of every label repeated within one operand.
Labeled merge_repeats(Labeled x) {
  for (size_t i = 0; i < x.labels.size(); ++i)
    for (size_t j = i + 1; j < x.labels.size(); ++j) {
      if (x.labels[i] != x.labels[j]) continue;
      x.t = diagonal(x.t, 0, int64_t(i), int64_t(j));
      int l = x.labels[i];
      x.labels.erase(x.labels.begin() + int64_t(j));
      x.labels.erase(x.labels.begin() + int64_t(i));
      x.labels.push_back(l);
      return merge_repeats(std::move(x));
    }
  return x;
}
bool has(const std::vector<int>& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); }
// Sums away the labels of x that `keep` does not name.
Labeled sum_unused(Labeled x, const std::vector<int>& keep) {
  Shape dims;
  std::vector<int> rest;
  for (size_t i = 0; i < x.labels.size(); ++i)
    has(keep, x.labels[i]) ? rest.push_back(x.labels[i]) : dims.push_back(int64_t(i));
  if (dims.empty()) return x;
  return {sum(x.t, dims), rest};
}
Tensor permuted_to(const Labeled& x, const std::vector<int>& order) {
  Shape perm;
  for (int l : order) perm.push_back(std::find(x.labels.begin(), x.labels.end(), l) - x.labels.begin());
  return permute(x.t, perm);
}
int64_t label_size(const Labeled& x, int l) {
  auto it = std::find(x.labels.begin(), x.labels.end(), l);
  return it == x.labels.end() ? 1 : x.t.sizes()[size_t(it - x.labels.begin())];
}
// Contracts two operands to the labels `keep` still needs, through one bmm:
// [batch, a-only, contracted] @ [batch, contracted, b-only].
Labeled contract(Labeled a, Labeled b, const std::vector<int>& keep) {
  std::vector<int> both_keep(keep);
  for (int l : b.labels) both_keep.push_back(l);
  a = sum_unused(std::move(a), both_keep);
  both_keep = keep;
  for (int l : a.labels) both_keep.push_back(l);
  b = sum_unused(std::move(b), both_keep);
  std::vector<int> batch, aonly, bonly, inner;
  for (int l : a.labels) (has(b.labels, l) ? (has(keep, l) ? batch : inner) : aonly).push_back(l);
  for (int l : b.labels)
    if (!has(a.labels, l)) bonly.push_back(l);
  Shape bs, as, ks, ns;
  int64_t B = 1, M = 1, K = 1, N = 1;
  for (int l : batch) bs.push_back(std::max(label_size(a, l), label_size(b, l))), B *= bs.back();
  for (int l : aonly) as.push_back(label_size(a, l)), M *= as.back();
  for (int l : inner) ks.push_back(std::max(label_size(a, l), label_size(b, l))), K *= ks.back();
  for (int l : bonly) ns.push_back(label_size(b, l)), N *= ns.back();
  auto join = [](std::initializer_list<const std::vector<int>*> parts) {
    std::vector<int> o;
    for (auto* p : parts) o.insert(o.end(), p->begin(), p->end());
    return o;
  };
  auto join_s = [](std::initializer_list<const Shape*> parts) {
    Shape o;
    for (auto* p : parts) o.insert(o.end(), p->begin(), p->end());
    return o;
  };
  Tensor ta = expand(permuted_to(a, join({&batch, &aonly, &inner})), join_s({&bs, &as, &ks}));
  Tensor tb = expand(permuted_to(b, join({&batch, &inner, &bonly})), join_s({&bs, &ks, &ns}));
  Tensor r = bmm(reshape(ta, {B, M, K}), reshape(tb, {B, K, N}));
  return {reshape(r, join_s({&bs, &as, &ns})), join({&batch, &aonly, &bonly})};
}

// A letter's sizes across operands must broadcast (equal, or 1 on one side): PyTorch's check and words.
// `seen` holds each letter's size so far; a size of 1 gives way to the next one.
void check_label_sizes(const Labeled& x, size_t operand, std::map<int, int64_t>& seen) {
  for (size_t d = 0; d < x.labels.size(); ++d) {
    const int l = x.labels[d];
    if (l >= kEll) continue;
    const int64_t size = x.t.size(int64_t(d));
    auto [it, fresh] = seen.emplace(l, size);
    if (fresh || it->second == size || size == 1) continue;
    const char letter = l < 26 ? char('A' + l) : char('a' + (l - 26));
    KILN_CHECK(it->second == 1, Runtime, "einsum(): subscript ", letter, " has size ", size, " for operand ", operand,
               " which does not broadcast with previously seen size ", it->second);
    it->second = size;
  }
}

// einsum(str equation, Tensor[] tensors, *, int[]? path=None)
std::vector<Tensor> einsum_composite(const Args& a) {
  std::string eq = a[0].str();
  const std::vector<Tensor>& ts = a[1].tensor_list();
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  KILN_CHECK(terms.size() >= ts.size(), Runtime, "einsum(): more operands were provided than specified in the equation");
  KILN_CHECK(terms.size() <= ts.size(), Runtime,
             "einsum(): fewer operands were provided than specified in the equation");
  std::vector<Labeled> ops;
  int64_t ell_dims = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    int64_t nd = ts[i].dim(), named = int64_t(t.labels.size());
    KILN_CHECK(t.ellipsis ? nd >= named : nd == named, Runtime, "einsum(): the number of subscripts in the equation (",
               named, ") ", t.ellipsis ? "is more than" : "does not match", " the number of dimensions (", nd,
               ") for operand ", i, t.ellipsis ? "" : " and no ellipsis was given");
    ell_dims = std::max(ell_dims, nd - named);
  }
  std::map<int, int64_t> count, seen;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    int64_t e = ts[i].dim() - int64_t(t.labels.size());
    Labeled x{ts[i], {}};
    for (size_t j = 0; j <= t.labels.size(); ++j) {
      if (t.ellipsis && j == t.ell_at)
        for (int64_t k = 0; k < e; ++k) x.labels.push_back(kEll + int(ell_dims - e + k));
      if (j < t.labels.size()) x.labels.push_back(t.labels[j]);
    }
    for (int l : x.labels) ++count[l];
    check_label_sizes(x, i, seen);
    ops.push_back(merge_repeats(std::move(x)));
  }
  std::vector<int> out;
  if (arrow != std::string::npos) {
    Term o = parse_term(eq.substr(arrow + 2));
    for (size_t j = 0; j <= o.labels.size(); ++j) {
      if (o.ellipsis && j == o.ell_at)
        for (int64_t k = 0; k < ell_dims; ++k) out.push_back(kEll + int(k));
      if (j < o.labels.size()) {
        KILN_CHECK(count.count(o.labels[j]), Runtime, "einsum(): output subscript ", eq[arrow + 2 + j],
                   " does not appear in the equation for any input operand");
        out.push_back(o.labels[j]);
      }
    }
  } else {
    for (int64_t k = 0; k < ell_dims; ++k) out.push_back(kEll + int(k));
    for (auto [l, n] : count)
      if (l < kEll && n == 1) out.push_back(l);
  }
  Labeled acc = ops[0];
  bool last_summed = false;  // whether the last contraction summed labels away
  for (size_t i = 1; i < ops.size(); ++i) {
    std::vector<int> keep = out;  // labels still needed: the output's and later operands'
    for (size_t j = i + 1; j < ops.size(); ++j) keep.insert(keep.end(), ops[j].labels.begin(), ops[j].labels.end());
    auto dropped = [&](int l) { return !has(keep, l); };
    last_summed = std::ranges::any_of(acc.labels, dropped) || std::ranges::any_of(ops[i].labels, dropped);
    acc = contract(std::move(acc), ops[i], keep);
  }
  const size_t before = acc.labels.size();
  acc = sum_unused(std::move(acc), out);
  // Ellipsis dims of size 1 everywhere may be missing after a lone operand's broadcast.
  Tensor r = permuted_to(acc, out);
  // ATen's last op names the node: a pair's bmm result viewed to shape, or its
  // product when nothing was summed; a lone operand's sum, or its permute (a view).
  if (ops.size() > 1) return {as_node(r, last_summed ? "ViewBackward0" : "MulBackward0")};
  if (acc.labels.size() < before) return {as_node(r, "SumBackward1")};
  if (r.is_same(ts[0])) {
    Shape same;
    for (int64_t d = 0; d < r.dim(); ++d) same.push_back(d);
    return {permute(r, same)};
  }
  return {r};
}

// ---- norms -------------------------------------------------------------------------------
// s ** e with a zero gradient at s == 0 (PyTorch's norm backward masks the
// zero norm): the root only sees s where s != 0.
Tensor safe_root(const Tensor& s, double e) {
  Tensor z = eq(s, wrapped(0));
  Tensor safe = where(z, wrapped(1), s);
  Tensor r = e == 0.5 ? sqrt(safe) : pow(safe, e);
  return where(z, wrapped(0), r);
}
Tensor vector_norm(const Tensor& self, double ord, const Value& dim, bool keepdim, const Value& dtype,
                   const char* fn) {
  Tensor x = dtype.is_none() ? self : to_dtype(self, dtype.dtype());
  KILN_CHECK(is_floating(x.dtype()), Runtime, fn, ": Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(x.dtype()));
  // An empty dim list means every dim, as no list does.
  const Shape all = dim.is_none() ? Shape{} : Shape(dim.int_list());
  const Dims dims = all.empty() ? std::nullopt : Dims(all);
  auto norm = [&] {
    if (std::isinf(ord)) return ord > 0 ? amax(abs(x), all, keepdim) : amin(abs(x), all, keepdim);
    if (ord == 0) return sum(to_dtype(ne(x, wrapped(0)), x.dtype()), dims, keepdim);
    if (ord == 1) return sum(abs(x), dims, keepdim);
    if (ord == 2) return safe_root(sum(mul(x, x), dims, keepdim), 0.5);
    return safe_root(sum(pow(abs(x), ord), dims, keepdim), 1.0 / ord);
  };
  return as_node(norm(), "LinalgVectorNormBackward0");  // 'fro' matrix norms are this op too
}
// linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)
std::vector<Tensor> vector_norm_composite(const Args& a) {
  return {vector_norm(a[0].tensor(), a[1].to_double(), a[2], a[3].to_bool(), a[4], "linalg.vector_norm")};
}
// norm.ScalarOpt_dim(Tensor self, Scalar? p=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)
std::vector<Tensor> norm_composite(const Args& a) {
  double p = a[1].is_none() ? 2.0 : a[1].to_double();
  return {vector_norm(a[0].tensor(), p, a[2], a[3].to_bool(), a[4], "linalg.vector_norm")};
}
// Matrix norms over two dims (default the last two): 'fro'; the induced 1 / inf norms (max
// column / row sum of |A|); and from the singular values, 'nuc' (their sum) and 2 / -2 (the
// largest / smallest). PyTorch's order names.
enum class MatrixOrd { Fro, Nuc, Spectral, Induced };
std::string ord_text(double ord) {
  if (std::isinf(ord)) return ord > 0 ? "inf" : "-inf";
  if (ord == std::trunc(ord) && std::abs(ord) < 1e15) return detail::cat(int64_t(ord));
  return format_double(ord);
}
// The norm from singular values: the two dims move last (PyTorch's permutation, which keepdim undoes).
Tensor singular_value_norm(const Tensor& x, double ord, bool nuc, int64_t d0, int64_t d1, bool keepdim) {
  Shape perm;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != d0 && d != d1) perm.push_back(d);
  perm.insert(perm.end(), {d0, d1});
  Tensor s = invoke("linalg_svdvals", {permute(x, perm)});
  // sum over a dim list is PyTorch's SumBackward1 even when it reduces everything.
  Tensor r = nuc ? as_node(sum(s, Shape{-1}), "SumBackward1") : ord > 0 ? amax(s, {-1}) : amin(s, {-1});
  if (!keepdim) return r;
  Shape inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[size_t(perm[i])] = int64_t(i);
  return permute(unsqueeze(unsqueeze(r, -1), -1), inverse);
}
Tensor matrix_norm(const Tensor& A, double ord, MatrixOrd kind, const Value& dim, bool keepdim, const Value& dtype) {
  KILN_CHECK(A.dim() >= 2, Runtime, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  Shape dims = dim.is_none() ? Shape{-2, -1} : dim.int_list();
  if (dims.size() != 2) {
    std::string shown;  // PyTorch prints the dims space-separated
    for (int64_t d : dims) shown += (shown.empty() ? "" : " ") + std::to_string(d);
    throw Error("linalg.matrix_norm: dim must be a 2-tuple. Got " + shown, ErrorKind::Runtime);
  }
  int64_t d0 = wrap_dim(dims[0], A.dim()), d1 = wrap_dim(dims[1], A.dim());
  KILN_CHECK(d0 != d1, Runtime, "linalg.matrix_norm: dims must be different. Got (", dims[0], ", ", dims[1], ")");
  Tensor x = dtype.is_none() ? A : to_dtype(A, dtype.dtype());
  KILN_CHECK(is_floating(x.dtype()), NotImplemented,
             "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(x.dtype()));
  if (kind == MatrixOrd::Fro) return vector_norm(A, 2.0, Value(Shape{d0, d1}), keepdim, dtype, "linalg.matrix_norm");
  if (kind != MatrixOrd::Induced) return singular_value_norm(x, ord, kind == MatrixOrd::Nuc, d0, d1, keepdim);
  // ord 1 sums over rows (d0) then takes the extreme over columns; inf the other way.
  int64_t sum_dim = std::isinf(ord) ? d1 : d0, ext_dim = std::isinf(ord) ? d0 : d1;
  Tensor s = sum(abs(x), Shape{sum_dim}, keepdim);
  if (!keepdim && sum_dim < ext_dim) --ext_dim;
  return ord > 0 ? amax(s, {ext_dim}, keepdim) : amin(s, {ext_dim}, keepdim);
}
Tensor matrix_norm_num(const Tensor& A, double ord, const Value& dim, bool keepdim, const Value& dtype) {
  const bool spectral = std::abs(ord) == 2, induced = std::isinf(ord) || std::abs(ord) == 1;
  KILN_CHECK(spectral || induced, Runtime, "linalg.matrix_norm: Order ", ord_text(ord), " not supported.");
  return matrix_norm(A, ord, spectral ? MatrixOrd::Spectral : MatrixOrd::Induced, dim, keepdim, dtype);
}
Tensor matrix_norm_str(const Tensor& A, const std::string& ord, const Value& dim, bool keepdim, const Value& dtype) {
  KILN_CHECK(ord == "fro" || ord == "nuc", Runtime, "linalg.matrix_norm: Order ", ord, " not supported.");
  return matrix_norm(A, 0, ord == "fro" ? MatrixOrd::Fro : MatrixOrd::Nuc, dim, keepdim, dtype);
}
// norm.str(Tensor self, str p, ...): 'fro' over at most two dims is the 2-norm over them; the
// rest is matrix_norm's, over every dim when none are given (which must then be two).
std::vector<Tensor> norm_str_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const std::string& p = a[1].str();
  if (p == "fro" && (a[2].is_none() || a[2].int_list().size() <= 2))
    return {vector_norm(x, 2.0, a[2], a[3].to_bool(), a[4], "linalg.vector_norm")};
  Shape dims;
  if (a[2].is_none())
    for (int64_t d = 0; d < x.dim(); ++d) dims.push_back(d);
  else
    dims = a[2].int_list();
  return {matrix_norm_str(x, p, Value(dims), a[3].to_bool(), a[4])};
}

// linalg_matrix_norm(Tensor self, Scalar ord, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)
std::vector<Tensor> matrix_norm_composite(const Args& a) {
  return {matrix_norm_num(a[0].tensor(), a[1].to_double(), a[2], a[3].to_bool(), a[4])};
}
std::vector<Tensor> matrix_norm_str_composite(const Args& a) {
  return {matrix_norm_str(a[0].tensor(), a[1].str(), a[2], a[3].to_bool(), a[4])};
}
// linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None):
// a vector norm, or a matrix norm when ord is given for a matrix (or dim names two dims).
std::vector<Tensor> linalg_norm_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  bool two = a[2].is_none() ? x.dim() == 2 : a[2].int_list().size() == 2;
  if (a[1].is_none()) {
    Value dim = a[2];
    return {vector_norm(x, 2.0, dim, a[3].to_bool(), a[4], "linalg.vector_norm")};
  }
  KILN_CHECK(!a[2].is_none() || x.dim() <= 2, Runtime,
             "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ", x.dim(), "D.");
  if (two) return {matrix_norm_num(x, a[1].to_double(), a[2], a[3].to_bool(), a[4])};
  return {vector_norm(x, a[1].to_double(), a[2], a[3].to_bool(), a[4], "linalg.vector_norm")};
}
std::vector<Tensor> linalg_norm_str_composite(const Args& a) {
  return {matrix_norm_str(a[0].tensor(), a[1].str(), a[2], a[3].to_bool(), a[4])};
}

}  // namespace
}  // namespace ops

void register_linalg_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", .kind = OpKind::View,
         .shape = shape_diagonal, .dtype = dtype_like_self, .kernel = diagonal_kernel, .grad = grad_diagonal});
  t.add({.schema_text = "diag(Tensor self, int diagonal=0) -> Tensor", .kind = C, .composite = diag_composite});
  t.add({.schema_text = "trace(Tensor self) -> Tensor", .kind = C, .composite = trace_composite,
         .grad_node = "TraceBackward0"});
  t.add({.schema_text = "outer(Tensor self, Tensor vec2) -> Tensor", .kind = C, .composite = outer_composite});
  t.add({.schema_text = "ger(Tensor self, Tensor vec2) -> Tensor", .kind = C, .composite = outer_composite});
  t.add({.schema_text = "addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = addmm_composite});
  t.add({.schema_text = "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = baddbmm_composite, .grad_node = "BaddbmmBackward0"});
  t.add({.schema_text = "addmm_(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
         .kind = C, .composite = product_inplace_composite<kAddmm>});
  t.add({.schema_text = "baddbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> "
                        "Tensor",
         .kind = C, .composite = product_inplace_composite<kBaddbmm>});
  t.add({.schema_text = "einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", .kind = C,
         .composite = einsum_composite});
  t.add({.schema_text = "norm(Tensor self, Scalar? p=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = C, .composite = norm_composite});
  t.add({.schema_text = "norm.str(Tensor self, str p, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = C, .composite = norm_str_composite});
  t.add({.schema_text = "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = C, .composite = vector_norm_composite});
  t.add({.schema_text = "linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = C, .composite = matrix_norm_str_composite});
  t.add({.schema_text = "linalg_matrix_norm(Tensor self, Scalar ord, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = C, .composite = matrix_norm_composite});
  t.add({.schema_text = "linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = C, .composite = linalg_norm_composite});
  t.add({.schema_text = "linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = C, .composite = linalg_norm_str_composite});
}

}  // namespace kiln
