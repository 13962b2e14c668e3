// Combining ops written as composites of views, cat, mul and index_select:
// broadcasting (broadcast_to, broadcast_tensors), grids and products
// (meshgrid, cartesian_prod, kron, tensordot, cross, block_diag), stacking
// (atleast_Nd, column_stack, dstack, row_stack), rot90, fliplr, flipud and logspace. Being
// composites, autograd, the tracer and both code generators see through them
// to the ops they are made of. And the factories tril_indices / triu_indices.
#include <algorithm>

#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

// ---- broadcasting -------------------------------------------------------------------------
std::vector<Tensor> broadcast_to_composite(const Args& a) { return {expand(a[0].tensor(), a[1].int_list())}; }

std::vector<Tensor> broadcast_tensors_composite(const Args& a) {
  const std::vector<Tensor>& ts = a[0].tensor_list();
  Shape shape;
  for (const Tensor& t : ts) shape = broadcast_shapes(shape, t.sizes());
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(expand(t, shape));
  return out;
}

// ---- grids and products --------------------------------------------------------------------
// meshgrid(Tensor[] tensors, *, str? indexing=None): each input viewed along
// its own dim and expanded; "xy" swaps the roles of the first two inputs.
std::vector<Tensor> meshgrid_of(std::vector<Tensor> ts, const std::string& indexing) {
  KILN_CHECK(!ts.empty(), Runtime, "meshgrid expects a non-empty TensorList");
  KILN_CHECK(indexing == "xy" || indexing == "ij", Runtime,
             "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", indexing);
  for (const Tensor& t : ts) {
    KILN_CHECK(t.dim() <= 1, Runtime, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ",
               t.str());
    KILN_CHECK(t.dtype() == ts[0].dtype(), Runtime, "meshgrid expects all tensors to have the same dtype");
  }
  bool swap = indexing == "xy" && ts.size() >= 2;
  if (swap) std::swap(ts[0], ts[1]);
  Shape shape;
  for (const Tensor& t : ts) shape.push_back(t.numel());
  std::vector<Tensor> grids;
  for (size_t i = 0; i < ts.size(); ++i) {
    Shape along(ts.size(), 1);
    along[i] = -1;
    grids.push_back(expand(view(ts[i], along), shape));
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}
std::vector<Tensor> meshgrid_composite(const Args& a) {
  return meshgrid_of(a[0].tensor_list(), a[1].is_none() ? "ij" : a[1].str());
}

std::vector<Tensor> cartesian_prod_composite(const Args& a) {
  const std::vector<Tensor>& ts = a[0].tensor_list();
  for (const Tensor& t : ts) KILN_CHECK(t.dim() == 1, Runtime, "Expect a 1D vector, but got shape ", t.shape_str());
  if (ts.size() == 1) return {ts[0]};
  std::vector<Tensor> grids = meshgrid_of(ts, "ij");
  for (Tensor& g : grids) g = flatten(g);
  return {stack(grids, 1)};
}

// kron: a viewed as (a0, 1, a1, 1, ...) times b as (1, b0, 1, b1, ...), pairs merged.
std::vector<Tensor> kron_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  size_t n = size_t(std::max(x.dim(), y.dim()));
  auto padded = [n](const Tensor& t) {
    Shape s(n - size_t(t.dim()), 1);
    s.insert(s.end(), t.sizes().begin(), t.sizes().end());
    return s;
  };
  Shape xs = padded(x), ys = padded(y), xv, yv, merged;
  for (size_t i = 0; i < n; ++i) {
    xv.insert(xv.end(), {xs[i], 1});
    yv.insert(yv.end(), {1, ys[i]});
    merged.push_back(xs[i] * ys[i]);
  }
  return {reshape(mul(reshape(x, xv), reshape(y, yv)), merged)};
}

// tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other):
// both permuted to (free, contracted) / (contracted, free) matrices and multiplied.
std::vector<Tensor> tensordot_composite(const Args& a) {
  Tensor x = a[0].tensor(), y = a[1].tensor();
  const Shape &raw1 = a[2].int_list(), &raw2 = a[3].int_list();
  KILN_CHECK(raw1.size() == raw2.size(), Runtime, "both dimension lists should have same length");
  std::vector<bool> c1(size_t(x.dim()), false), c2(size_t(y.dim()), false);
  Shape d1, d2;
  int64_t csize = 1;
  for (size_t i = 0; i < raw1.size(); ++i) {
    int64_t a1 = wrap_dim(raw1[i], x.dim()), a2 = wrap_dim(raw2[i], y.dim());
    KILN_CHECK(!c1[size_t(a1)], Runtime, "dim ", a1, " appears multiple times in the list of dims");
    KILN_CHECK(!c2[size_t(a2)], Runtime, "dim ", a2, " appears multiple times in the list of dims");
    int64_t s1 = x.size(a1), s2 = y.size(a2);
    if (s2 == 1) {  // a broadcast dim is summed right away, as PyTorch does
      x = sum(x, Shape{a1}, true);
    } else if (s1 == 1) {
      y = sum(y, Shape{a2}, true);
    } else {
      KILN_CHECK(s1 == s2, Runtime, "contracted dimensions need to match, but first has size ", s1, " in dim ", a1,
                 " and second has size ", s2, " in dim ", a2);
      csize *= s1;
    }
    c1[size_t(a1)] = c2[size_t(a2)] = true;
    d1.push_back(a1);
    d2.push_back(a2);
  }
  Shape p1, p2 = d2, out_shape;
  int64_t size1 = 1, size2 = 1;
  for (int64_t i = 0; i < x.dim(); ++i) {
    if (c1[size_t(i)]) continue;
    p1.push_back(i);
    out_shape.push_back(x.size(i));
    size1 *= x.size(i);
  }
  p1.insert(p1.end(), d1.begin(), d1.end());
  for (int64_t i = 0; i < y.dim(); ++i) {
    if (c2[size_t(i)]) continue;
    p2.push_back(i);
    out_shape.push_back(y.size(i));
    size2 *= y.size(i);
  }
  Tensor m1 = reshape(permute(x, p1), {size1, csize}), m2 = reshape(permute(y, p2), {csize, size2});
  return {reshape(mm(m1, m2), out_shape)};
}

// cross product along dim: x[(i+1)%3] y[(i+2)%3] - x[(i+2)%3] y[(i+1)%3].
Tensor cross_along(const Tensor& x, const Tensor& y, int64_t dim) {
  KILN_CHECK(x.dim() == y.dim(), Runtime, "linalg.cross: inputs must have the same number of dimensions.");
  int64_t d = wrap_dim(dim, x.dim());
  KILN_CHECK(x.size(d) == 3 && y.size(d) == 3, Runtime, "linalg.cross: inputs dimension ", dim,
             " must have length 3. Got ", x.size(d), " and ", y.size(d));
  auto next = [d](const Tensor& t) { return invoke("roll", {t, Shape{-1}, Shape{d}}); };  // (1, 2, 0)
  auto after = [d](const Tensor& t) { return invoke("roll", {t, Shape{1}, Shape{d}}); };  // (2, 0, 1)
  return sub(mul(next(x), after(y)), mul(after(x), next(y)));
}
std::vector<Tensor> linalg_cross_composite(const Args& a) {
  return {cross_along(a[0].tensor(), a[1].tensor(), a[2].to_int())};
}
// torch.cross without dim: the first dim of size 3 (PyTorch 2.x).
std::vector<Tensor> cross_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  if (!a[2].is_none()) return {cross_along(x, a[1].tensor(), a[2].to_int())};
  for (int64_t i = 0; i < x.dim(); ++i)
    if (x.size(i) == 3) return {cross_along(x, a[1].tensor(), i)};
  throw Error("no dimension of size 3 in input", ErrorKind::Runtime);
}

// block_diag(Tensor[] tensors): each block's rows padded with zeros left and right.
std::vector<Tensor> block_diag_composite(const Args& a) {
  std::vector<Tensor> ts = a[0].tensor_list();
  if (ts.empty()) return {zeros({1, 0})};
  const std::vector<Value> each(ts.begin(), ts.end());
  DType dt = result_type_args(each);
  int64_t cols = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    Tensor& t = ts[i];
    KILN_CHECK(t.dim() <= 2, Runtime, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i,
               " has ", t.dim(), " dimensions");
    t = to_dtype(t.dim() == 2 ? t : reshape(t, {1, -1}), dt);
    cols += t.size(1);
  }
  std::vector<Tensor> rows;
  int64_t left = 0;
  for (const Tensor& t : ts) {
    int64_t r = t.size(0), c = t.size(1);
    rows.push_back(cat({zeros({r, left}, dt), t, zeros({r, cols - left - c}, dt)}, 1));
    left += c;
  }
  return {cat(rows, 0)};
}

// ---- stacking ------------------------------------------------------------------------------
template <int N>
Tensor atleast(const Tensor& t) {
  if (t.dim() >= N) return t;
  if (t.dim() == 0) return reshape(t, Shape(size_t(N), 1));
  if (N == 2) return unsqueeze(t, 0);
  return t.dim() == 1 ? unsqueeze(unsqueeze(t, 0), -1) : unsqueeze(t, -1);  // (1, n, 1) / (m, n, 1)
}
template <int N>
std::vector<Tensor> atleast_composite(const Args& a) {
  return {atleast<N>(a[0].tensor())};
}
template <int N>
std::vector<Tensor> atleast_seq_composite(const Args& a) {
  std::vector<Tensor> out;
  for (const Tensor& t : a[0].tensor_list()) out.push_back(atleast<N>(t));
  return out;
}

std::vector<Tensor> column_stack_composite(const Args& a) {
  std::vector<Tensor> ts = a[0].tensor_list();
  KILN_CHECK(!ts.empty(), Runtime, "column_stack expects a non-empty TensorList");
  for (Tensor& t : ts)
    if (t.dim() <= 1) t = reshape(t, {t.numel(), 1});
  return {invoke("hstack", {ts})};
}
std::vector<Tensor> dstack_composite(const Args& a) {
  std::vector<Tensor> ts = a[0].tensor_list();
  KILN_CHECK(!ts.empty(), Runtime, "dstack expects a non-empty TensorList");
  for (Tensor& t : ts) t = atleast<3>(t);
  return {cat(ts, 2)};
}
std::vector<Tensor> row_stack_composite(const Args& a) { return {invoke("vstack", {a[0]})}; }

// rot90(Tensor self, int k=1, int[] dims=[0,1]): flips and a transpose.
std::vector<Tensor> rot90_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const Shape& dims = a[2].int_list();
  int64_t total = x.dim();
  KILN_CHECK(dims.size() == 2, Runtime, "expected total rotation dims == 2, but got dims = ", dims.size());
  KILN_CHECK(total >= 2, Runtime, "expected total dims >= 2, but got total dims = ", total);
  KILN_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != total, Runtime,
             "expected rotation dims to be different, but got dim0 = ", dims[0], " and dim1 = ", dims[1]);
  KILN_CHECK(dims[0] < total && dims[0] >= -total, Runtime, "Rotation dim0 out of range, dim0 = ", dims[0]);
  KILN_CHECK(dims[1] < total && dims[1] >= -total, Runtime, "Rotation dim1 out of range, dim1 = ", dims[1]);
  auto flip = [&](const Shape& d) { return invoke("flip", {x, d}); };
  switch ((4 + a[1].to_int() % 4) % 4) {
    case 1: return {transpose(flip({dims[1]}), dims[0], dims[1])};
    case 2: return {flip(dims)};
    case 3: return {transpose(flip({dims[0]}), dims[0], dims[1])};
    default: return {clone(x)};
  }
}

// fliplr / flipud: flip along dim 1 / dim 0, which must exist.
template <int64_t Dim>
std::vector<Tensor> flip_dim_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dim() > Dim, Runtime, "Input must be >= ", Dim + 1, "-d.");
  return {invoke("flip", {x, Shape{Dim}})};
}

// ---- factories -----------------------------------------------------------------------------
// logspace(start, end, steps, base=10.0, *, dtype=None, requires_grad=False):
// base ** linspace, the power taken in the result's floating type as PyTorch does.
std::vector<Tensor> logspace_composite(const Args& a) {
  DType d = a[4].is_none() ? kDefaultFloat : a[4].dtype();
  DType compute = is_floating(d) ? d : DType::Float64;
  Tensor out = pow(a[3].to_double(), linspace(a[0].to_double(), a[1].to_double(), a[2].to_int(), compute));
  if (compute != d) out = to_dtype(out, d);
  if (a[5].to_bool()) out.requires_grad_(true);
  return {out};
}

// tril_indices / triu_indices(row, col, offset=0, *, dtype=long): the
// coordinates of the kept triangle in row-major order, as a (2, count)
// tensor. A factory: the count follows from the arguments, so the JIT keeps it
// in its graph.
struct TriRow {
  int64_t first, end;  // the kept columns of one row
};
template <bool Lower>
TriRow tri_row(int64_t r, int64_t col, int64_t offset) {
  if (Lower) return {0, std::clamp<int64_t>(r + offset + 1, 0, col)};
  return {std::clamp<int64_t>(r + offset, 0, col), col};
}
template <bool Lower>
std::vector<Shape> shape_tri_indices(const Args& a) {
  int64_t row = a[0].to_int(), col = a[1].to_int(), offset = a[2].to_int(), count = 0;
  KILN_CHECK(row >= 0, Runtime, "row must be non-negative, got", row);
  KILN_CHECK(col >= 0, Runtime, "col must be non-negative, got", col);
  for (int64_t r = 0; r < row; ++r) {
    TriRow kept = tri_row<Lower>(r, col, offset);
    count += kept.end - kept.first;
  }
  return {{2, count}};
}
std::vector<DType> dtype_tri_indices(const Args& a) { return {a[3].is_none() ? DType::Int64 : a[3].dtype()}; }
template <bool Lower>
void tri_indices_kernel(const Args& a, std::vector<Tensor>& outs) {
  int64_t row = a[0].to_int(), col = a[1].to_int(), offset = a[2].to_int(), count = outs[0].size(1), k = 0;
  visit_dtype(outs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = outs[0].data<T>();
    for (int64_t r = 0; r < row; ++r) {
      TriRow kept = tri_row<Lower>(r, col, offset);
      for (int64_t c = kept.first; c < kept.end; ++c, ++k) {
        p[k] = static_cast<T>(static_cast<compute_t<T>>(r));
        p[count + k] = static_cast<T>(static_cast<compute_t<T>>(c));
      }
    }
  });
}

}  // namespace
}  // namespace ops

void register_combine_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "broadcast_to(Tensor self, int[] size) -> Tensor", .kind = C,
         .composite = broadcast_to_composite});
  t.add({.schema_text = "broadcast_tensors(Tensor[] tensors) -> Tensor[]", .kind = C,
         .composite = broadcast_tensors_composite});
  t.add({.schema_text = "meshgrid(Tensor[] tensors, *, str? indexing=None) -> Tensor[]", .kind = C,
         .composite = meshgrid_composite});
  t.add({.schema_text = "cartesian_prod(Tensor[] tensors) -> Tensor", .kind = C,
         .composite = cartesian_prod_composite});
  t.add({.schema_text = "kron(Tensor self, Tensor other) -> Tensor", .kind = C, .composite = kron_composite,
         .grad_node = "UnsafeViewBackward0"});
  t.add({.schema_text = "tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor",
         .kind = C, .composite = tensordot_composite});
  t.add({.schema_text = "cross(Tensor self, Tensor other, int? dim=None) -> Tensor", .kind = C,
         .composite = cross_composite, .grad_node = "LinalgCrossBackward0"});
  t.add({.schema_text = "linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", .kind = C,
         .composite = linalg_cross_composite, .grad_node = "LinalgCrossBackward0"});
  t.add({.schema_text = "block_diag(Tensor[] tensors) -> Tensor", .kind = C, .composite = block_diag_composite});
  t.add({.schema_text = "atleast_1d(Tensor self) -> Tensor", .kind = C, .composite = atleast_composite<1>});
  t.add({.schema_text = "atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", .kind = C,
         .composite = atleast_seq_composite<1>});
  t.add({.schema_text = "atleast_2d(Tensor self) -> Tensor", .kind = C, .composite = atleast_composite<2>});
  t.add({.schema_text = "atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", .kind = C,
         .composite = atleast_seq_composite<2>});
  t.add({.schema_text = "atleast_3d(Tensor self) -> Tensor", .kind = C, .composite = atleast_composite<3>});
  t.add({.schema_text = "atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", .kind = C,
         .composite = atleast_seq_composite<3>});
  t.add({.schema_text = "column_stack(Tensor[] tensors) -> Tensor", .kind = C, .composite = column_stack_composite});
  t.add({.schema_text = "dstack(Tensor[] tensors) -> Tensor", .kind = C, .composite = dstack_composite});
  t.add({.schema_text = "row_stack(Tensor[] tensors) -> Tensor", .kind = C, .composite = row_stack_composite});
  t.add({.schema_text = "rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", .kind = C,
         .composite = rot90_composite, .grad_node = "Rot90Backward0"});
  t.add({.schema_text = "fliplr(Tensor self) -> Tensor", .kind = C, .composite = flip_dim_composite<1>});
  t.add({.schema_text = "flipud(Tensor self) -> Tensor", .kind = C, .composite = flip_dim_composite<0>});
  t.add({.schema_text = "logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None, "
                        "bool requires_grad=False) -> Tensor",
         .kind = C, .composite = logspace_composite});
  t.add({.schema_text = "tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=None) -> Tensor",
         .kind = OpKind::Creation, .shape = shape_tri_indices<true>, .dtype = dtype_tri_indices,
         .kernel = tri_indices_kernel<true>});
  t.add({.schema_text = "triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=None) -> Tensor",
         .kind = OpKind::Creation, .shape = shape_tri_indices<false>, .dtype = dtype_tri_indices,
         .kernel = tri_indices_kernel<false>});
}

}  // namespace kiln
